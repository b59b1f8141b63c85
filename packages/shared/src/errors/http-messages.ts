/** The web client's status → message map (platform §8). */
export const HTTP_STATUS_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  422: 'Validation Error',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Message for a failed call: the spec's text for known statuses, else status, status text and body. */
export function httpErrorMessage(status: number, statusText: string, body: string): string {
  const known = HTTP_STATUS_MESSAGES[status];
  if (known) return known;
  const text = statusText ? ` ${statusText}` : '';
  return `Request failed: ${status}${text}${body ? `: ${body}` : ''}`;
}
