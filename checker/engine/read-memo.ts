/**
 * A memo for a pure function of one record whose key is what the function reads, not a list someone
 * wrote down. The first call on a new input runs the function on a recording view of the record and
 * stores, as a path in a decision tree, each field it read (in first-read order) with the value found;
 * a later call walks the tree reading the same fields of its own input and answers from the leaf it
 * reaches. A function whose reads change (a guard replaced to read another field, a field added) gets
 * its own paths: nothing it reads can be left out of the key.
 *
 * The function must read the record only through its fields (no `Object.keys`, no spreading) and
 * depend on nothing else that varies: then the field it reads next depends only on the values it has
 * read so far, and the tree is exact. A walk that finds another field read where one was read before
 * means the function read something beyond its input: that is refused with an error, never answered.
 */
export class ReadKeyedMemo<I extends object, R> {
  private root: ReadNode<R> | null = null;
  hits = 0;
  misses = 0;

  constructor(
    private readonly compute: (input: I) => R,
    /** Named in errors: what the function decides. */
    private readonly name = 'function',
  ) {}

  get(input: I): R {
    let node = this.root;
    const values = input as Record<string, unknown>;
    while (node !== null) {
      if (node.field === null) {
        this.hits++;
        return node.result as R;
      }
      const next = node.children.get(valueKey(values[node.field]));
      if (next === undefined) break;
      node = next;
    }
    this.misses++;
    return this.record(input);
  }

  /** Runs the function on a recording view of input and files its reads and answer in the tree. */
  private record(input: I): R {
    const reads: [string, unknown][] = [];
    const seen = new Set<string>();
    const view = new Proxy(input, {
      get(target, field, receiver) {
        const value: unknown = Reflect.get(target, field, receiver);
        if (typeof field === 'string' && !seen.has(field) && Object.hasOwn(target, field)) {
          seen.add(field);
          reads.push([field, valueKey(value)]);
        }
        return value;
      },
      ownKeys() {
        throw new Error(
          'ReadKeyedMemo: the function lists the fields of its input; it must read them by name',
        );
      },
    });
    const result = this.compute(view);
    this.file(reads, result);
    return result;
  }

  private file(reads: readonly [string, unknown][], result: R): void {
    const leaf: ReadNode<R> = { field: null, children: new Map(), result };
    if (reads.length === 0) {
      if (this.root !== null)
        throw new Error(`${this.name}: read nothing where an earlier call read ${this.root.field}`);
      this.root = leaf;
      return;
    }
    if (this.root === null) this.root = { field: reads[0][0], children: new Map(), result: undefined };
    let node = this.root;
    reads.forEach(([field, value], at) => {
      if (node.field !== field)
        throw new Error(
          `${this.name}: read ${field} where an earlier call with the same values read ${node.field ?? 'nothing more'}; it depends on more than its input`,
        );
      let next = node.children.get(value);
      if (next === undefined) {
        next =
          at + 1 < reads.length ? { field: reads[at + 1][0], children: new Map(), result: undefined } : leaf;
        node.children.set(value, next);
      }
      node = next;
    });
    if (node.field !== null)
      throw new Error(
        `${this.name}: stopped reading where an earlier call with the same values went on to read ${node.field}; it depends on more than its input`,
      );
  }
}

/** A node of the tree: the field read next and a child per value seen, or (field null) an answer. */
interface ReadNode<R> {
  field: string | null;
  children: Map<unknown, ReadNode<R>>;
  result: R | undefined;
}

/** A read value as a map key: primitives as they are, records and lists as their canonical JSON. */
function valueKey(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  let key = objectKeys.get(value);
  if (key === undefined) {
    key = `\u0000${canonical(value)}`;
    objectKeys.set(value, key);
  }
  return key;
}

/**
 * A record's key per record: the facts hold verdicts taken from interned snapshots, the same object
 * each time. Sound only for records not changed after they are read, which the facts are not.
 */
const objectKeys = new WeakMap<object, string>();

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
    .join(',')}}`;
}
