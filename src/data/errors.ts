// The Data API's error body, as the hosted API (NestJS) writes it: {message, statusCode, error},
// where `message` is an array for parameter validation (class-validator's texts) and a string
// otherwise, and `error` is the status's reason phrase.

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export class DataError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: string | string[],
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
  }

  body(): { message: string | string[]; statusCode: number; error: string } {
    return { message: this.messages, statusCode: this.statusCode, error: REASONS[this.statusCode] ?? 'Error' };
  }
}

export const badRequest = (message: string | string[]) => new DataError(400, message);
export const notFound = (message: string) => new DataError(404, message);
