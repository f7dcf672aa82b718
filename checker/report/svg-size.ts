/**
 * The drawn size of an SVG from its root element: the `viewBox` width and height, else numeric `width`
 * and `height` attributes. Mermaid writes `width="100%"` with the real size in the viewBox, so the
 * viewBox comes first. Reads attributes only: no SVG bytes are compared.
 */
export interface SvgSize {
  width: number;
  height: number;
}

/** The widest a committed diagram should be at the default scale, in CSS pixels. */
export const maxDiagramWidth = 1600;

/** The tallest a committed diagram may be: a reviewer reads it whole on about two screens. */
export const maxDiagramHeight = 2000;

/**
 * What the check allows over `maxDiagramWidth`: another Chromium build or other fonts measure text a
 * few percent differently, and a diagram near the limit must not flip between builds.
 */
export const diagramWidthMargin = 0.05;

export function svgSize(svg: string): SvgSize {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0];
  if (!root) throw new Error('no <svg> element');
  const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(root)?.[1];
  const viewBox = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (viewBox && viewBox.length === 4 && viewBox.every(Number.isFinite)) {
    return { width: viewBox[2], height: viewBox[3] };
  }
  const width = Number(attribute('width'));
  const height = Number(attribute('height'));
  if (Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0) return { width, height };
  throw new Error('the root <svg> has neither a viewBox nor numeric width and height');
}
