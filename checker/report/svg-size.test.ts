import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagramsFolder, fixtureDiagramsFolder } from './diagram.ts';
import { diagramWidthMargin, maxDiagramHeight, maxDiagramWidth, svgSize } from './svg-size.ts';

describe('reading the size of an SVG', () => {
  it('takes the viewBox of the root element, as Mermaid writes it', () => {
    const svg =
      '<svg id="x" width="100%" xmlns="http://www.w3.org/2000/svg" style="max-width: 875.27px;" viewBox="4 4 875.27 2988.125"><svg viewBox="0 0 9999 1"/></svg>';
    expect(svgSize(svg)).toEqual({ width: 875.27, height: 2988.125 });
  });

  it('falls back to numeric width and height', () => {
    expect(svgSize('<svg width="120" height="80"></svg>')).toEqual({ width: 120, height: 80 });
  });

  it('says what is missing', () => {
    expect(() => svgSize('<svg width="100%"></svg>')).toThrow(
      'neither a viewBox nor numeric width and height',
    );
    expect(() => svgSize('<html></html>')).toThrow('no <svg> element');
  });
});

const committed = [diagramsFolder, fixtureDiagramsFolder]
  .filter((folder) => existsSync(folder))
  .flatMap((folder) =>
    readdirSync(folder)
      .filter((name) => name.endsWith('.svg'))
      .map((name) => join(folder, name)),
  );

describe('the committed diagrams', () => {
  it('include the overview and the fixture', () => {
    expect(committed).toContain(join(diagramsFolder, 'overview.svg'));
    expect(committed).toContain(join(fixtureDiagramsFolder, 'fixture.svg'));
  });

  it.each(committed)(`%s is at most about ${maxDiagramWidth} px wide`, (file) => {
    const { width } = svgSize(readFileSync(file, 'utf8'));
    const allowed = maxDiagramWidth * (1 + diagramWidthMargin);
    expect(
      width,
      `${file} is ${Math.round(width)} px wide: split it, turn it TB/LR, or wrap its labels`,
    ).toBeLessThanOrEqual(allowed);
  });

  // The committed files were drawn once, so their height is a fact about the repository, not this machine's Chromium.
  it.each(committed)(`%s is at most ${maxDiagramHeight} px tall`, (file) => {
    const { height } = svgSize(readFileSync(file, 'utf8'));
    expect(
      height,
      `${file} is ${Math.round(height)} px tall: split it or shorten its labels`,
    ).toBeLessThanOrEqual(maxDiagramHeight);
  });
});
