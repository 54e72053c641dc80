import createClient from 'openapi-fetch';
import { call, type ApiResult } from '../../../shared/api';

/**
 * `GET /v1/templates` is being added to the service (and so to @wrs/client) in parallel. Until
 * the generated client has it, this is the route's shape, typed for openapi-fetch as the
 * generated schema would be; once it lands, switch `listTemplates` to the service's client.
 */
export interface TemplateSummary {
  id: string;
  name?: string;
}

interface TemplatesPaths {
  '/v1/templates': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': { count: number; results: TemplateSummary[] } } };
        default: { headers: { [name: string]: unknown }; content: { 'application/json': { message: string; code: string } } };
      };
    };
  };
}

/** The company's PDF templates (no bodies); a 404 means the service does not offer the list yet. */
export function listTemplates(token: string): Promise<ApiResult<{ count: number; results: TemplateSummary[] }>> {
  const client = createClient<TemplatesPaths>({ baseUrl: location.origin, headers: { authorization: `Bearer ${token}` } });
  return call(() => client.GET('/v1/templates', { cache: 'no-store' }));
}
