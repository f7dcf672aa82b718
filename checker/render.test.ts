import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DiagramEntry, outlineMachine } from './diagram.ts';
import {
  ChromiumNotFoundError,
  chromiumFlags,
  defaultChromiumPath,
  diagramSets,
  findChromium,
  puppeteerLaunchOptions,
  renderStamp,
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
  set.entries.map((entry): [string, DiagramEntry, string] => [
    entry.id,
    entry,
    join(set.folder, `${entry.id}.svg`),
  ]),
);

describe.each(committed)('committed %s.svg', (_id, entry, path) => {
  const svg = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const outline = outlineMachine(entry.machine);

  it('exists and is a rendered SVG with its stamp', () => {
    expect(svg.startsWith(`<svg id="nsmodel-${entry.id}"`), `${path}: run npm run diagrams`).toBe(true);
    expect(svg).toMatch(/<!-- nsmodel render [0-9a-f]{64} -->\n$/);
  });

  it('holds no Mermaid error', () => {
    expect(/Syntax error|aria-roledescription="error"/i.test(svg)).toBe(false);
  });

  it("shows every state's name and every transition's trigger", () => {
    const text = svg.replace(/\u00a0/g, ' ');
    for (const state of outline.states)
      expect(text, `state ${state.path}`).toContain(`>${asSvgText(state.key)}<`);
    for (const transition of outline.transitions) {
      expect(text, `transition ${transition.id}`).toContain(asSvgText(transition.trigger));
    }
  });
});
