// What the frame keeps in its own origin's storage: the device id and the session token of
// each project. The host page never sees either (it is another origin).
const DEVICE_KEY = 'latch-vault:device';

export function readItem(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage blocked: the frame still works for this page's lifetime
  }
}

export function writeItem(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // as above
  }
}

let memoryDevice: string | null = null;

/** This browser's device id: 32 random hex digits, made once. */
export function deviceId(): string {
  const stored = readItem(DEVICE_KEY) ?? memoryDevice;
  if (stored) return stored;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  memoryDevice = id;
  writeItem(DEVICE_KEY, id);
  return id;
}

const tokenKey = (projectId: string) => `latch-vault:${projectId}:token`;
let memoryTokens = new Map<string, string>();

export function sessionToken(projectId: string): string | null {
  return readItem(tokenKey(projectId)) ?? memoryTokens.get(projectId) ?? null;
}

export function setSessionToken(projectId: string, token: string | null): void {
  if (token === null) memoryTokens.delete(projectId);
  else memoryTokens.set(projectId, token);
  writeItem(tokenKey(projectId), token);
}

/** For tests of the storage-blocked path only. */
export function resetMemory(): void {
  memoryDevice = null;
  memoryTokens = new Map();
}
