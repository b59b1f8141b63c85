/** `owner/name` for API paths, each part encoded (they come from the URL the user typed). */
export function repoApiPath(fullName: string): string {
  return fullName
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/** The repository page's own path, `/gh/{owner}/{repo}` plus an optional tab. */
export function repoPagePath(fullName: string, tab?: string): string {
  return `/gh/${repoApiPath(fullName)}${tab ? `/${tab}` : ''}`;
}
