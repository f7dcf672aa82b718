// @ts-check
/**
 * `npm run verify`: scripts/verify.ts run from a bundle of its modules and packages (checker/cli/bundled.mjs),
 * rebuilt when any of them changed, so the run does not wait for tsx and Node to load some 140 modules and
 * 400 package files one by one. It runs
 * the sources through tsx when no bundle can be had, and for `--random`, whose module verify loads by path.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { freshBundle, verifyBundleRequest } from '../checker/cli/bundled.mjs';

/**
 * @typedef {object} VerifyModule
 * @property {(argv: readonly string[]) => Promise<number>} main
 * @property {(command: string, main: () => Promise<number> | number) => Promise<void>} runCommand
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);

/**
 * Whether this start left more garbage than loading a kept bundle does (a few megabytes): the build's
 * metafile and digests when it built the bundle, or tsx's transforms. verify collects none before its search, so it is done here.
 */
let leftGarbage = false;

/** @returns {Promise<VerifyModule | undefined>} */
async function bundledVerify() {
  if (argv.includes('--random')) return undefined;
  const bundle = await freshBundle(verifyBundleRequest(root));
  if (bundle === undefined) return undefined;
  if (bundle.built) leftGarbage = true;
  // Stack traces name the sources only when they are printed (runCommand, under NSMODEL_DEBUG=1).
  if (process.env.NSMODEL_DEBUG === '1') process.setSourceMapsEnabled(true);
  return import(pathToFileURL(bundle.path).href);
}

/** @returns {Promise<VerifyModule>} */
async function sourceVerify() {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('./verify.ts');
  const { runCommand } = await import('../checker/cli/cli.ts');
  return { main, runCommand };
}

let verify = await bundledVerify();
if (verify === undefined) {
  leftGarbage = true;
  verify = await sourceVerify();
}
if (leftGarbage) {
  // Node's documented way to reach `gc` without a command-line flag, as verify's collections between phases.
  setFlagsFromString('--expose-gc');
  /** @type {() => void} */ (runInNewContext('gc'))();
}
await verify.runCommand('verify', () => verify.main(argv));
