import type { FastifyRequest } from 'fastify';
import { INSTALLATION_HEADER } from '@tandem/shared';
import { z } from 'zod';
import { parseRequest } from './validation.js';

const installationHeader = z.object({
  [INSTALLATION_HEADER]: z.coerce.number().int().positive().optional(),
});

/** The installation a call names in X-Installation-ID (platform §7); null when it names none. */
export function requestedInstallation(request: FastifyRequest): number | null {
  const headers = parseRequest(installationHeader, request.headers, 'header');
  return headers[INSTALLATION_HEADER] ?? null;
}
