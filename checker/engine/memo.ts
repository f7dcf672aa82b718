/**
 * `compute(a, b)` remembered per pair of objects, by identity (weakly: a pair is forgotten with either
 * object). For pure functions of interned or long-lived values: a scope, a copy's arrays, a graph.
 */
export function memoByPair<A extends object, B extends object, R>(
  compute: (a: A, b: B) => R,
): (a: A, b: B) => R {
  const byFirst = new WeakMap<A, WeakMap<B, R>>();
  return (a, b) => {
    let bySecond = byFirst.get(a);
    if (!bySecond) {
      bySecond = new WeakMap();
      byFirst.set(a, bySecond);
    }
    if (bySecond.has(b)) return bySecond.get(b) as R;
    const result = compute(a, b);
    bySecond.set(b, result);
    return result;
  };
}
