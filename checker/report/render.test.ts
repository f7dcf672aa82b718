import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oneProcessCommand } from '../../test-support/run-command.ts';
import { type DiagramView, diagramViews, outlineMachine, viewTransitions } from './diagram.ts';
import { scopeStates } from './outline.ts';
import {
  ChromiumNotFoundError,
  chromiumFlags,
  defaultChromiumPath,
  diagramSets,
  findChromium,
  puppeteerLaunchOptions,
  rendererFingerprint,
  renderStamp,
  svgJobs,
  svgProblem,
} from './render.ts';

describe('finding Chromium', () => {
  const existing = process.execPath;

  it('prefers NSMODEL_CHROMIUM, then PUPPETEER_EXECUTABLE_PATH, then the Debian path', () => {
    expect(findChromium({ NSMODEL_CHROMIUM: existing, PUPPETEER_EXECUTABLE_PATH: '/nowhere' })).toBe(
      existing,
    );
    expect(findChromium({ PUPPETEER_EXECUTABLE_PATH: existing })).toBe(existing);
    if (existsSync(defaultChromiumPath)) expect(findChromium({})).toBe(defaultChromiumPath);
  });

  it('says in one line how to get one when none is there', () => {
    const attempt = () => findChromium({ NSMODEL_CHROMIUM: '/nowhere/chromium' });
    expect(attempt).toThrow(ChromiumNotFoundError);
    expect(attempt).toThrow(/\/nowhere\/chromium.*apt-get install -y chromium.*NSMODEL_CHROMIUM/);
  });

  it('launches headless with the quiet flags, without the sandbox only as root', () => {
    const options = puppeteerLaunchOptions('/usr/bin/chromium');
    expect(options.executablePath).toBe('/usr/bin/chromium');
    expect(options.args).toEqual(expect.arrayContaining(chromiumFlags));
    const root = process.getuid?.() === 0;
    expect(options.args?.includes('--no-sandbox')).toBe(root);
  });
});

describe('render stamps', () => {
  const job = { definition: 'stateDiagram-v2\n  [*] --> a\n', outputPath: 'x.svg', svgId: 'nsmodel-x' };

  it('change with the source, the svg id and the renderer', () => {
    const stamp = renderStamp(job, 'renderer 1');
    expect(stamp).toMatch(/^<!-- nsmodel render [0-9a-f]{64} -->$/);
    expect(renderStamp(job, 'renderer 1')).toBe(stamp);
    expect(renderStamp({ ...job, definition: `${job.definition}  a --> b\n` }, 'renderer 1')).not.toBe(stamp);
    expect(renderStamp({ ...job, svgId: 'nsmodel-y' }, 'renderer 1')).not.toBe(stamp);
    expect(renderStamp(job, 'renderer 2')).not.toBe(stamp);
  });
});

/** Text as the SVG holds it: XML-escaped, with the non-breaking spaces of unwrapped labels. */
function asSvgText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const committed = diagramSets.flatMap((set) =>
  diagramViews(set.entries).map((view): [string, DiagramView, string] => [
    view.id,
    view,
    join(set.folder, `${view.id}.svg`),
  ]),
);

describe.each(committed)('committed %s.svg', (_id, view, path) => {
  const svg = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const outline = outlineMachine(view.machine);

  it('exists and is a rendered SVG with its stamp', () => {
    expect(svg.startsWith(`<svg id="nsmodel-${view.id}"`), `${path}: run npm run diagrams`).toBe(true);
    expect(svg).toMatch(/<!-- nsmodel render [0-9a-f]{64} -->\n$/);
  });

  it('holds no Mermaid error', () => {
    expect(/Syntax error|aria-roledescription="error"/i.test(svg)).toBe(false);
  });

  it("shows every state's name and every transition's trigger", () => {
    const text = svg.replace(/\u00a0/g, ' ');
    // A part drawn in its own diagram is a box that names that diagram after the state's name.
    for (const state of scopeStates(outline, view.scope))
      expect(text, `state ${state.path}`).toContain(`>${asSvgText(state.key)}`);
    for (const transition of viewTransitions(view)) {
      expect(text, `transition ${transition.id}`).toContain(asSvgText(transition.trigger));
    }
  });
});

describe('SVG freshness, judged by the source and not by the bytes a browser drew', () => {
  const fingerprint = rendererFingerprint();
  const jobs = svgJobs(diagramSets);

  it('finds every committed SVG fresh: its stamp names the current source and renderer settings', () => {
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs)
      expect(svgProblem(job, readFileSync(job.path, 'utf8'), fingerprint), job.path).toBeNull();
  });

  it('keeps an SVG another Chromium measured differently, and flags one whose source changed', () => {
    const job = jobs[0];
    const committed = readFileSync(job.path, 'utf8');
    const remeasured = committed.replace(/width="(\d+)/, (_, w: string) => `width="${Number(w) + 7}`);
    expect(remeasured).not.toBe(committed);
    expect(svgProblem(job, remeasured, fingerprint)).toBeNull();
    const changedSource = { ...job, definition: `${job.definition}\n%% one more line` };
    expect(svgProblem(changedSource, committed, fingerprint)).toMatch(/another source/);
  });

  it('flags an SVG that does not parse, shows a Mermaid error or has no stamp', () => {
    const job = jobs[0];
    const committed = readFileSync(job.path, 'utf8');
    const stamp = renderStamp(job, fingerprint);
    expect(svgProblem(job, committed.replace('</svg>', ''), fingerprint)).toMatch(/one <svg> element/);
    expect(
      svgProblem(
        job,
        committed.replace('</svg>', '<g><path class="error-icon"></path></g></svg>'),
        fingerprint,
      ),
    ).toMatch(/Mermaid error/);
    expect(svgProblem(job, committed.replace(`${stamp}\n`, ''), fingerprint)).toMatch(/no render stamp/);
  });
});

describe('npm run diagrams, interrupted', () => {
  it.skipIf(!existsSync(process.env.NSMODEL_CHROMIUM || defaultChromiumPath))(
    'leaves no browser process and no temporary file after SIGTERM',
    async () => {
      const { spawn, execFileSync } = await import('node:child_process');
      const { mkdtemp, rm } = await import('node:fs/promises');
      const { tmpdir } = await import('node:os');
      const cwd = await mkdtemp(join(tmpdir(), 'nsmodel-diagrams-'));
      const [command, args] = oneProcessCommand('scripts/diagrams.ts', ['--force']);
      const child = spawn(command, args, { cwd });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      const descendants = (pid: number): number[] => {
        const out = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
        const pairs = out
          .trim()
          .split('\n')
          .map((line) => line.trim().split(/\s+/).map(Number));
        const found: number[] = [];
        const walk = (parent: number) => {
          for (const [p, pp] of pairs) {
            if (pp !== parent) continue;
            found.push(p);
            walk(p);
          }
        };
        walk(pid);
        return found;
      };
      // Wait until the browser runs (a Chromium below the command), then stop the command.
      let browser: number[] = [];
      for (let i = 0; i < 200 && browser.length < 3; i++) {
        await new Promise((r) => setTimeout(r, 100));
        browser = descendants(child.pid ?? 0);
      }
      expect(browser.length).toBeGreaterThanOrEqual(3);
      child.kill('SIGTERM');
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code).toBe(143);
      const isAlive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      // Chromium's helpers exit once the browser's pipe closes: give them a moment.
      for (let i = 0; i < 50 && browser.some(isAlive); i++) await new Promise((r) => setTimeout(r, 100));
      const alive = browser.filter(isAlive);
      expect(alive, output).toEqual([]);
      const leftovers = execFileSync('find', [cwd, '-name', '*.tmp'], { encoding: 'utf8' });
      expect(leftovers).toBe('');
      await rm(cwd, { recursive: true, force: true });
    },
    60_000,
  );
});
