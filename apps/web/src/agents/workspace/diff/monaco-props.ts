/** What the lazily loaded Monaco diff editor needs for one file. */
export interface MonacoDiffProps {
  /** The file's path: picks the syntax highlighting. */
  path: string;
  original: string;
  modified: string;
  sideBySide: boolean;
  /** Lines cut off before the shown text (a large file's common prefix); numbering continues after them. */
  lineOffset: number;
  /** Initial height in px, before the editor measures its content. */
  height: number;
}
