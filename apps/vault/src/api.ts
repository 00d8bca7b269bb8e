// The embedded routes of latch, on the frame's own origin (latch serves both there).
import { DEFAULT_ERROR } from './messages';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** The refused input (`primaryOtp`, `secondaryOtp`, `newEmail`...). */
    readonly field: string = '',
  ) {
    super(message);
  }
}

interface ErrorBody {
  code?: string;
  reasons?: { field?: string; description?: string }[];
}

export async function call<T>(
  projectId: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { body?: unknown; token?: string | null; query?: Record<string, string> } = {},
): Promise<T> {
  const query = new URLSearchParams({ projectId, ...options.query });
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const init: RequestInit = { method, headers, credentials: 'omit', cache: 'no-store' };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const response = await fetch(`/v1/embedded/${path}?${query}`, init);
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = (data ?? {}) as ErrorBody;
    // The server's descriptions are the user-facing messages (e.g. "Please try again after 25 seconds").
    const reason = error.reasons?.[0];
    throw new ApiError(reason?.description ?? DEFAULT_ERROR, response.status, error.code ?? '', reason?.field ?? '');
  }
  return data as T;
}
