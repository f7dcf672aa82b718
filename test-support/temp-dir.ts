import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * A scratch folder under the system's temp folder for the enclosing `describe`, removed afterwards, so no
 * test writes into the working tree. `fresh: true` gives each test its own folder. Call the result inside
 * a test or hook to get the path.
 */
export function useTempDir(prefix: string, { fresh = false }: { fresh?: boolean } = {}): () => string {
  let folder = '';
  (fresh ? beforeEach : beforeAll)(async () => {
    folder = await mkdtemp(join(tmpdir(), `nsmodel-${prefix}-`));
  });
  (fresh ? afterEach : afterAll)(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return () => folder;
}
