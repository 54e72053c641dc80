import { providerTimeout, serviceUnavailable } from '../../errors/app-error.js';
import { RendererUnavailableError, RenderTimeoutError } from './pdf-renderer.port.js';

/** A render that timed out or could not run, as the error the caller sees. */
export function renderFailure(error: unknown): unknown {
  if (error instanceof RenderTimeoutError) {
    return providerTimeout(`${error.message}; try again, or simplify the template`);
  }
  if (error instanceof RendererUnavailableError) return serviceUnavailable(error.message, 1);
  return error;
}
