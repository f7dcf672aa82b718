import type { ApiRequest } from '../machines/system.ts';

/** A list of configmaps in one namespace (-1: across all), or the watch it starts (D-16). */
export function configMapList(
  principal: ApiRequest['principal'],
  namespace: number,
  watch = false,
): ApiRequest {
  return {
    principal,
    verb: 'list',
    target: 'content',
    namespace,
    object: -1,
    resource: 'configmaps',
    ...(watch ? { watch: true as const } : {}),
  };
}
