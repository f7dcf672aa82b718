import type { Scope } from './scope.ts';

/**
 * What a design alternative declares about itself beyond its machines (docs/alternatives.md): how the
 * create is answered, what admission reports, who stands for other controllers. Properties read these
 * as the scope's declared data; only `readBeforeEachRequest` changes what the system does.
 */
export interface DesignOptions {
  /** ALT-3 (002, 000 scalability): the creating POST is held until initialized and times out after this many seconds. */
  createHeldSeconds?: number;
  /** 004, rejected alternative 2: admission reports the configuration version it caches (observedGeneration). */
  reportsCachedVersion?: boolean;
  /** 004, rejected alternative 1: admission reads the configurations from storage before each create. */
  readBeforeEachRequest?: boolean;
  /** IN-10 (002): principals standing for controllers that start work in a namespace (a ReplicaSet controller). */
  consumers?: string[];
  /** FP-5 (004 Goal 4): initializers the administrator registered whose controllers may not be ready. */
  mayBeNotReady?: string[];
}

/** A scope with its design options; every other scope has none. */
export type DesignScope = Scope & { design?: DesignOptions };

export function designOf(scope: Scope): DesignOptions {
  return (scope as DesignScope).design ?? {};
}
