/**
 * The API key for this browser tab: sessionStorage only (gone when the tab closes; never
 * localStorage, never a cookie, never a URL). If the storage is unavailable the key lives in
 * memory until the page is reloaded.
 */
const STORAGE_KEY = "agent-memory.api-key";
let memoryCopy: string | null = null;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function loadKey(): string | null {
  return storage()?.getItem(STORAGE_KEY) ?? memoryCopy;
}

export function saveKey(key: string): void {
  memoryCopy = key;
  try {
    storage()?.setItem(STORAGE_KEY, key);
  } catch {
    // quota or privacy mode: the in-memory copy serves this page
  }
}

export function clearKey(): void {
  memoryCopy = null;
  storage()?.removeItem(STORAGE_KEY);
}
