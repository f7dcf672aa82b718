// @ts-check
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/**
 * What StrykerJS leaves unmutated in machines/: diagram metadata, which no verdict reads. A state's
 * `description`, a transition's `meta`, and the requirement IDs `when(...)` and `act(...)` carry.
 */
const metadataKeys = new Set(['description', 'meta']);

/** @param {any} path a Babel NodePath */
function shouldIgnore(path) {
  if (path.isObjectProperty() && metadataKeys.has(path.node.key?.name ?? path.node.key?.value))
    return 'diagram metadata (a description or meta), read by no property';
  const call = path.parentPath;
  if (call?.isCallExpression() && path.listKey === 'arguments') {
    const callee = call.node.callee.name;
    if ((callee === 'when' && path.key === 3) || (callee === 'act' && path.key === 2))
      return "a transition's requirement IDs (diagram metadata), read by no property";
  }
  return undefined;
}

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'metadata', { shouldIgnore })];
