/**
 * The local code host (a GitHub-compatible server for the embedded default and tests) lands here
 * with the code-host issue; the package exists now so the workspace layout is fixed.
 */
export const CODEHOST_PACKAGE = '@tandem/codehost';
