import type { RouteOptions } from 'fastify';

type RouteHookName = 'preParsing' | 'preValidation' | 'onSend' | 'onResponse';

/** Methods whose body Fastify never reads (its `bodyless` set): hooks about bodies have nothing to do there. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

/** Whether a route answers a method that Fastify reads a body for. */
export function takesBody(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.some((method) => !BODYLESS_METHODS.has(method.toUpperCase()));
}

/** Adds a hook to one route (from an `onRoute` hook), before the hooks the route declares itself. */
export function prependRouteHook(route: RouteOptions, name: RouteHookName, hook: (...args: never[]) => void): void {
  (route as unknown as Record<RouteHookName, unknown>)[name] = [hook, ...routeHooks(route, name)];
}

/** Adds a hook to one route (from an `onRoute` hook), after the hooks it has so far. */
export function appendRouteHook(route: RouteOptions, name: RouteHookName, hook: (...args: never[]) => void): void {
  (route as unknown as Record<RouteHookName, unknown>)[name] = [...routeHooks(route, name), hook];
}

function routeHooks(route: RouteOptions, name: RouteHookName): unknown[] {
  const current: unknown = route[name];
  return current === undefined ? [] : Array.isArray(current) ? current : [current];
}
