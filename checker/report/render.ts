import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { renderMermaid } from '@mermaid-js/mermaid-cli';
import type { MermaidConfig } from 'mermaid';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer';
import { type ActorOverview, actorOverview, machineCatalog } from '../../machines/catalog.ts';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { fixtureCatalog } from '../fixtures/catalog.ts';
import {
  type DiagramEntry,
  diagramSources,
  diagramsFolder,
  fixtureDiagramsFolder,
  machinesDoc,
  machinesDocPath,
} from './diagram.ts';

/**
 * Renders Mermaid sources to SVG with mermaid-cli's JS API in a system Chromium. One browser serves
 * every diagram, each page gets a seeded Math.random so the same source always gives the same bytes,
 * and an SVG whose stamp matches its source and renderer is left alone.
 */

export const defaultChromiumPath = '/usr/bin/chromium';

export const chromiumFlags = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export class ChromiumNotFoundError extends Error {
  constructor(tried: string) {
    super(
      `No Chromium found (tried ${tried}): install one with \`apt-get install -y chromium\`, or set NSMODEL_CHROMIUM to a Chromium binary.`,
    );
    this.name = 'ChromiumNotFoundError';
  }
}

/** NSMODEL_CHROMIUM, then PUPPETEER_EXECUTABLE_PATH, then /usr/bin/chromium. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const candidate = env.NSMODEL_CHROMIUM || env.PUPPETEER_EXECUTABLE_PATH || defaultChromiumPath;
  if (!existsSync(candidate)) throw new ChromiumNotFoundError(candidate);
  return candidate;
}

/** Launch options for puppeteer; root cannot use Chromium's sandbox, so it is turned off there. */
export function puppeteerLaunchOptions(executablePath: string): LaunchOptions {
  const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return {
    executablePath,
    headless: true,
    // Over a pipe Chromium exits when its parent dies, even by SIGKILL, so a killed run leaves no browser.
    pipe: true,
    // renderSvgs closes the browser and removes unfinished files itself on these signals.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [...(runningAsRoot ? ['--no-sandbox'] : []), ...chromiumFlags],
  };
}

/** Mermaid settings for the committed SVGs: ELK lays out dense decision chains without overlapping labels. */
export function mermaidRenderConfig(seed: string): MermaidConfig {
  return {
    theme: 'default',
    layout: 'elk',
    deterministicIds: true,
    deterministicIDSeed: seed,
    // Labels break only where the generator put <br/>, never inside a name or a requirement ID.
    markdownAutoWrap: false,
  };
}

export interface RenderJob {
  /** Mermaid source. */
  definition: string;
  /** Where the SVG goes. */
  outputPath: string;
  /** The SVG element's id; ids inside the SVG derive from it, so it should differ per diagram. */
  svgId: string;
}

/** Mermaid draws some ids from Math.random; a fixed sequence per page makes the output reproducible. */
const seededRandomScript = `(() => {
  let state = 0x9e3779b9;
  Math.random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();`;

/**
 * What an SVG's bytes depend on besides its source: the renderer's versions and settings. The Chromium
 * build is left out on purpose: Debian updates it often without changing the drawing, and when a new
 * build does draw differently, `npm run check:generated` shows it and `npm run diagrams -- --force` redraws.
 */
export function rendererFingerprint(): string {
  const require = createRequire(import.meta.url);
  const versionOf = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  const cliPackage = join(dirname(require.resolve('@mermaid-js/mermaid-cli')), '..', 'package.json');
  const cliVersion = (JSON.parse(readFileSync(cliPackage, 'utf8')) as { version: string }).version;
  return JSON.stringify({
    mermaid: versionOf('mermaid'),
    elk: versionOf('@mermaid-js/layout-elk'),
    cli: cliVersion,
    config: mermaidRenderConfig(''),
    random: seededRandomScript,
  });
}

/** The comment ending each SVG: a hash of its source and renderer, so an unchanged diagram is not re-rendered. */
export function renderStamp(job: Pick<RenderJob, 'definition' | 'svgId'>, fingerprint: string): string {
  const hash = createHash('sha256').update(fingerprint).update('\0').update(job.svgId).update('\0');
  return `<!-- nsmodel render ${hash.update(job.definition).digest('hex')} -->`;
}

/**
 * Why a committed SVG is not the drawing of `job`, or null when it is: judged by the stamp (its source
 * and renderer settings), never by the bytes, which differ between Chromium builds and fonts. The SVG
 * must also be one whole `<svg>` element without Mermaid's error drawing.
 */
export function svgProblem(
  job: Pick<RenderJob, 'definition' | 'svgId'>,
  svg: string,
  fingerprint: string,
): string | null {
  const stamp = renderStamp(job, fingerprint);
  if (!svg.endsWith(`${stamp}\n`)) {
    return svg.includes('<!-- nsmodel render ')
      ? 'drawn from another source or renderer settings (npm run diagrams)'
      : 'has no render stamp (npm run diagrams -- --force)';
  }
  const body = svg.slice(0, -stamp.length - 1).trimEnd();
  if (!body.startsWith(`<svg id="${job.svgId}"`) || !body.endsWith('</svg>'))
    return 'is not one <svg> element';
  if (/class="error-(icon|text)"|Syntax error in text/.test(body)) return 'shows a Mermaid error';
  const opened = (body.match(/<(?![/!?])[^>]*[^/]>|<(?![/!?])[a-zA-Z]+>/g) ?? []).length;
  const closed = (body.match(/<\/[^>]+>/g) ?? []).length;
  if (opened !== closed) return `does not parse: ${opened} opening tags, ${closed} closing`;
  return null;
}

export interface RenderOptions {
  /** Write the Mermaid sources and docs only; `check:generated` judges SVGs by their stamp instead. */
  skipSvgs?: boolean;
  /** Pages rendering at once in the one browser. */
  parallel?: number;
  /** Re-render even when an SVG carries the stamp of the same source and renderer. */
  force?: boolean;
  /** Receives one line on what was rendered and how long it took. */
  log?: (line: string) => void;
}

/**
 * Renders the jobs whose SVG is missing or stale, in one browser, `parallel` pages at a time; each SVG
 * is written atomically. Returns how many were rendered.
 */
export async function renderSvgs(jobs: readonly RenderJob[], options: RenderOptions = {}): Promise<number> {
  if (jobs.length === 0) return 0;
  const chromiumPath = findChromium();
  const fingerprint = rendererFingerprint();
  const pending = jobs.filter((job) => {
    if (options.force || !existsSync(job.outputPath)) return true;
    return !readFileSync(job.outputPath, 'utf8').endsWith(`${renderStamp(job, fingerprint)}\n`);
  });
  const started = performance.now();
  if (pending.length === 0) {
    options.log?.(`SVGs: all ${jobs.length} up to date`);
    return 0;
  }
  // A signal closes the one browser, then exits (128 + signal number); fs-atomic removes half-written
  // files on exit. A signal during the launch waits for the browser, so it is never left behind.
  let stopping: NodeJS.Signals | undefined;
  let launched: Browser | undefined;
  const stop = (name: NodeJS.Signals, browser: Browser) => {
    const code = name === 'SIGINT' ? 130 : name === 'SIGTERM' ? 143 : 129;
    void browser
      .close()
      .catch(() => undefined)
      .finally(() => process.exit(code));
  };
  const onSignal = (name: NodeJS.Signals) => {
    stopping ??= name;
    if (launched) stop(name, launched);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const name of signals) process.on(name, onSignal);
  const browser = await puppeteer.launch(puppeteerLaunchOptions(chromiumPath));
  launched = browser;
  if (stopping) stop(stopping, browser);
  try {
    const seededPages = {
      newPage: async () => {
        const page = await browser.newPage();
        await page.evaluateOnNewDocument(seededRandomScript);
        return page;
      },
    } as unknown as Browser;
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const job = pending[next++];
        const { data } = await renderMermaid(seededPages, job.definition, 'svg', {
          mermaidConfig: mermaidRenderConfig(job.svgId),
          svgId: job.svgId,
          backgroundColor: 'white',
          viewport: { width: 800, height: 600, deviceScaleFactor: 1 },
        });
        const svg = new TextDecoder().decode(data);
        await writeFileAtomic(job.outputPath, `${svg}\n${renderStamp(job, fingerprint)}\n`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.parallel ?? 2, pending.length) }, worker));
  } finally {
    for (const name of signals) process.off(name, onSignal);
    await browser.close();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  options.log?.(
    `SVGs: rendered ${pending.length} of ${jobs.length} in ${seconds} s (${jobs.length - pending.length} up to date)`,
  );
  return pending.length;
}

/** One set of diagrams: entries drawn into `folder` (relative to the root), with an optional overview doc. */
export interface DiagramSet {
  entries: readonly DiagramEntry[];
  folder: string;
  docPath?: string;
  /** Who sends what to whom: drawn as the first diagram of the set and of its doc. */
  overview?: ActorOverview;
}

/** The catalog's diagrams and their doc; the fixture's diagram too, so the pipeline is exercised on every construct. */
export const diagramSets: DiagramSet[] = [
  { entries: machineCatalog, folder: diagramsFolder, docPath: machinesDocPath, overview: actorOverview },
  { entries: fixtureCatalog, folder: fixtureDiagramsFolder },
];

/** Every SVG the sets draw: its path (relative to the root) and what its stamp is computed from. */
export function svgJobs(sets: readonly DiagramSet[]): { path: string; definition: string; svgId: string }[] {
  return sets.flatMap((set) =>
    diagramSources(set.entries, set.overview).map(({ id, definition }) => ({
      path: posix.join(set.folder, `${id}.svg`),
      definition,
      svgId: `nsmodel-${id}`,
    })),
  );
}

/**
 * Writes `<folder>/<id>.mmd` and `.svg` for every entry and each set's doc under `rootDir`, removes
 * diagrams of machines that are gone, and returns the written paths relative to `rootDir`.
 */
export async function generateDiagrams(
  rootDir: string,
  sets: readonly DiagramSet[],
  options: RenderOptions = {},
): Promise<string[]> {
  const written: string[] = [];
  const jobs: RenderJob[] = [];
  for (const set of sets) {
    const ids = set.entries.map((entry) => entry.id);
    const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
    if (duplicate) throw new Error(`Two catalog entries share the id "${duplicate}"`);
    for (const { id, definition } of diagramSources(set.entries, set.overview)) {
      const source = posix.join(set.folder, `${id}.mmd`);
      const svg = posix.join(set.folder, `${id}.svg`);
      await writeFileAtomic(join(rootDir, source), definition);
      jobs.push({ definition, outputPath: join(rootDir, svg), svgId: `nsmodel-${id}` });
      written.push(source, svg);
    }
    if (set.docPath) {
      await writeFileAtomic(
        join(rootDir, set.docPath),
        machinesDoc(set.entries, { docPath: set.docPath, diagramsFolder: set.folder }, set.overview),
      );
      written.push(set.docPath);
    }
  }
  if (!options.skipSvgs) await renderSvgs(jobs, options);
  for (const set of sets) await removeStaleDiagrams(rootDir, set.folder, new Set(written));
  return written.sort();
}

async function removeStaleDiagrams(
  rootDir: string,
  folder: string,
  keep: ReadonlySet<string>,
): Promise<void> {
  const names = await readdir(join(rootDir, folder)).catch(() => [] as string[]);
  for (const name of names) {
    const relative = posix.join(folder, name);
    if (/\.(mmd|svg)$/.test(name) && !keep.has(relative)) await rm(join(rootDir, relative));
  }
}
