// @ts-check
/**
 * A command's modules bundled into one file by esbuild and kept in `node_modules/.cache/nsmodel/`, rebuilt
 * whenever a file it was built from has changed: Node then loads one module instead of tsx resolving and
 * transforming some 140 and Node reading some 400 files of packages. Plain JavaScript, because Node loads it before any loader: a TypeScript entry
 * (Node's own type stripping) slows the whole run, search included, by about 0.5 s (docs/performance.md).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { contentDigest as digest, projectCacheFolder, projectTag, writeWhole } from './project-cache.mjs';

/**
 * What a bundle is built from.
 * @typedef {object} BundleRequest
 * @property {string} root the project folder: the entry's imports resolve from it, and every input is read under it
 * @property {string} name a short name for the bundle's files, such as `verify`
 * @property {string} entry the entry module's TypeScript source (re-exports)
 * @property {string} cacheFolder where bundles and their records are kept
 */

/**
 * A bundle ready to import, and whether this call had to build it.
 * @typedef {{ path: string, built: boolean }} Bundle
 */

/**
 * The record beside a bundle: what it was built from, by content, so that any change to them is seen.
 * @typedef {{ key: string, bundle: string, bundleDigest: string, inputs: Record<string, string> }} BundleRecord
 */

/** @param {string} path */
function readOptional(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * What the bundle depends on besides its inputs: this file (the build options), esbuild's version, the
 * TypeScript settings esbuild reads, and the entry's source.
 * @param {BundleRequest} request
 */
function buildKey(request) {
  const esbuildPackage = createRequire(import.meta.url).resolve('esbuild/package.json');
  const parts = [
    digest(readFileSync(fileURLToPath(import.meta.url))),
    JSON.parse(readFileSync(esbuildPackage, 'utf8')).version,
    digest(readOptional(join(request.root, 'tsconfig.json')) ?? ''),
    request.entry,
  ];
  return digest(parts.join('\n'));
}

/**
 * The prefix of a request's files: its name and its root's, since copies of the project (StrykerJS's
 * sandboxes, worktrees) may share one node_modules and so one cache folder.
 * @param {BundleRequest} request
 */
const filePrefix = (request) => `${request.name}-${projectTag(request.root)}`;

/** @param {BundleRequest} request */
const recordPath = (request) => join(request.cacheFolder, `${filePrefix(request)}.json`);

/**
 * The bundle recorded for `request` if it was built under the same key from inputs that are all unchanged.
 * @param {BundleRequest} request
 * @param {string} key
 * @returns {string | undefined}
 */
function recordedBundle(request, key) {
  const text = readOptional(recordPath(request));
  if (text === undefined) return undefined;
  /** @type {BundleRecord} */
  let record;
  try {
    record = JSON.parse(text.toString('utf8'));
  } catch {
    return undefined;
  }
  const wellFormed = typeof record.bundle === 'string' && typeof record.inputs === 'object' && record.inputs;
  if (record.key !== key || !wellFormed) return undefined;
  for (const [input, hash] of Object.entries(record.inputs)) {
    const content = readOptional(resolve(request.root, input));
    if (content === undefined || digest(content) !== hash) return undefined;
  }
  // A bundle edited or cut short in the cache since is built again.
  const path = join(request.cacheFolder, record.bundle);
  const bundle = readOptional(path);
  return bundle !== undefined && digest(bundle) === record.bundleDigest ? path : undefined;
}

/**
 * Each module's `import.meta.url` replaced by its own file's URL: the modules find the project's folders,
 * packages and child scripts relative to themselves, and inside one bundle they would all see the bundle's.
 * The digest of each source is taken from the very text esbuild is given, so an edit made during the build
 * is seen by the next run.
 * @param {Record<string, string>} readDigests filled with each project source's digest, by its path
 * @returns {import('esbuild').Plugin}
 */
const ownUrls = (readDigests) => ({
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const source = readFileSync(path, 'utf8');
      readDigests[path] = digest(source);
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
        loader: 'ts',
      };
    });
  },
});

/**
 * The first line of a bundle: the `require` its CommonJS packages call for Node's own modules (`punycode`).
 * Kept under node_modules/, the bundle is a package to Node, which then warns of no deprecated module.
 */
const bundleRequire =
  "import { createRequire as bundleCreateRequire } from 'node:module'; const require = bundleCreateRequire(import.meta.url);";

/**
 * Builds the bundle and writes it, its source map and its record, each by a rename: a reader never sees
 * half a file, and the record is written last, so it never names a bundle that is not there. esbuild
 * writes the files itself, so the 3 MB of code and its map never pass through this process's heap (a run
 * that builds would otherwise peak some 20 MB higher).
 * @param {BundleRequest} request
 * @param {string} key
 */
async function buildBundle(request, key) {
  const esbuild = await import('esbuild');
  // The entry is no file: esbuild lists it under this name, and the key holds its source.
  const entryName = `<${request.name} entry>`;
  mkdirSync(request.cacheFolder, { recursive: true });
  const building = join(request.cacheFolder, `${filePrefix(request)}.${process.pid}.building.mjs`);
  /** @type {Record<string, string>} */
  const readDigests = {};
  /** @type {import('esbuild').BuildResult<{ metafile: true; write: true }>} */
  let result;
  try {
    result = await esbuild.build({
      stdin: { contents: request.entry, resolveDir: request.root, sourcefile: entryName, loader: 'ts' },
      absWorkingDir: request.root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // The packages are bundled too: Node would otherwise resolve, read and compile some 400 files of them
      // (zod, yaml, kubernetes-models' schemas) one by one at every start. Their CommonJS parts still
      // `require` Node's own modules, so the bundle gets a `require` of its own.
      banner: { js: bundleRequire },
      // The map names the sources on disk rather than holding their text (1.9 MB instead of 5.6), and the
      // code's comment naming it is added below, once the bundle's own name is known.
      sourcemap: 'external',
      sourcesContent: false,
      write: true,
      metafile: true,
      logLevel: 'silent',
      outfile: building,
      plugins: [ownUrls(readDigests)],
    });
  } catch (error) {
    // A source esbuild refuses: nothing half-built is left behind.
    rmSync(building, { force: true });
    rmSync(`${building}.map`, { force: true });
    throw error;
  } finally {
    // esbuild's service process would otherwise stay beside the run, idle, holding some 130 MB.
    await esbuild.stop();
  }
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    if (input === entryName) continue;
    const path = resolve(request.root, input);
    inputs[input] = readDigests[path] ?? digest(readFileSync(path));
  }
  const code = readFileSync(building);
  const bundleName = `${filePrefix(request)}-${digest(code).slice(0, 16)}.mjs`;
  const bundlePath = join(request.cacheFolder, bundleName);
  const mapComment = `//# sourceMappingURL=${bundleName}.map\n`;
  appendFileSync(building, mapComment);
  renameSync(`${building}.map`, `${bundlePath}.map`);
  renameSync(building, bundlePath);
  const bundleDigest = createHash('sha256').update(code).update(mapComment).digest('hex');
  /** @type {BundleRecord} */
  const record = { key, bundle: bundleName, bundleDigest, inputs };
  writeWhole(recordPath(request), `${JSON.stringify(record, null, 2)}\n`);
  removeOtherBundles(request, bundleName);
  return bundlePath;
}

/**
 * Bundles of earlier sources are never read again (a process still loading one keeps its open file).
 * @param {BundleRequest} request
 * @param {string} kept
 */
function removeOtherBundles(request, kept) {
  for (const file of readdirSync(request.cacheFolder)) {
    const earlier =
      file.startsWith(`${filePrefix(request)}-`) && !file.startsWith(kept) && /\.mjs(\.map)?$/.test(file);
    if (earlier) rmSync(join(request.cacheFolder, file), { force: true });
  }
}

/**
 * The bundle for `request`, built now if none is recorded or if an input, the entry, esbuild or the
 * TypeScript settings changed since. Undefined when none can be had (no esbuild, a cache folder that
 * cannot be written, a source esbuild refuses): the caller then runs the sources as they are.
 * @param {BundleRequest} request
 * @returns {Promise<Bundle | undefined>}
 */
export async function freshBundle(request) {
  try {
    const key = buildKey(request);
    const recorded = recordedBundle(request, key);
    if (recorded !== undefined) return { path: recorded, built: false };
    return { path: await buildBundle(request, key), built: true };
  } catch (error) {
    if (process.env.NSMODEL_DEBUG === '1') console.error(error);
    return undefined;
  }
}

/**
 * `npm run verify`'s bundle (scripts/verify-bundled.mjs): verify's main and the runner of commands, kept in
 * npm's usual cache folder, never tracked.
 * @param {string} root the project folder
 * @returns {BundleRequest}
 */
export const verifyBundleRequest = (root) => ({
  root,
  name: 'verify',
  entry:
    "export { collectGarbage, main } from './scripts/verify.ts';\nexport { runCommand } from './checker/cli/cli.ts';\n",
  cacheFolder: projectCacheFolder(root),
});
