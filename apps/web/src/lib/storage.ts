/** Local storage that never throws (private windows, full quota): a failed write only loses the choice. */
export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // the choice just lasts for this page
  }
}
