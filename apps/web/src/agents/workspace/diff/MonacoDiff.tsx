import { DiffEditor, loader, type DiffOnMount } from '@monaco-editor/react';
import { useTheme } from '@mui/material/styles';
import * as monaco from 'monaco-editor/editor/editor.api';
// Only the features a read-only diff uses; the full 'monaco-editor' entry would also bring the
// TypeScript/JSON/CSS/HTML language services, which want workers of their own.
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/diffEditor/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/bracketMatching/register';
// Syntax colouring: each language's tokenizer is its own small chunk, loaded when a file needs it.
import 'monaco-editor/languages/definitions/register.all';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { EDITOR_FONT_SIZE, EDITOR_MAX_HEIGHT } from './editor-options';
import type { MonacoDiffProps } from './monaco-props';

// The generic editor worker computes diffs; nothing here needs a language worker. Bundled, so the
// editor never loads from a CDN (the loader's default).
self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
loader.config({ monaco });

/** The Monaco language of a path, by file name or extension; plain text when none matches. */
function languageOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot) : null;
  const match = monaco.languages
    .getLanguages()
    .find(
      (l) =>
        l.filenames?.some((f) => f.toLowerCase() === name) ||
        (extension !== null && l.extensions?.some((e) => e.toLowerCase() === extension)),
    );
  return match?.id ?? 'plaintext';
}

/** One file's read-only diff, as tall as its content up to a cap. */
export default function MonacoDiff({
  path,
  original,
  modified,
  sideBySide,
  lineOffset,
  height,
}: MonacoDiffProps) {
  const dark = useTheme().palette.mode === 'dark';
  const [measured, setMeasured] = useState<number | null>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  // @monaco-editor/react disposes the two models before the diff widget, which Monaco reports as
  // "TextModel got disposed before DiffEditorWidget model got reset". The library keeps the models
  // (keepCurrent*Model) and they are detached and disposed here: a layout-effect cleanup runs
  // before the library's passive one, while the widget is still alive.
  useLayoutEffect(
    () => () => {
      const editor = editorRef.current;
      const model = editor?.getModel();
      editor?.setModel(null);
      model?.original.dispose();
      model?.modified.dispose();
      editorRef.current = null;
    },
    [],
  );
  const language = useMemo(() => languageOf(path), [path]);
  const options = useMemo(
    (): monaco.editor.IDiffEditorConstructionOptions => ({
      readOnly: true,
      fontSize: EDITOR_FONT_SIZE,
      renderSideBySide: sideBySide,
      automaticLayout: true,
      scrollBeyondLastLine: false,
      minimap: { enabled: false },
      // The window scrolls, not each file: wheel events pass through at the editor's edges.
      scrollbar: { alwaysConsumeMouseWheel: false },
      renderOverviewRuler: false,
      lineNumbers: lineOffset ? (n: number) => String(n + lineOffset) : 'on',
      // Names for the editors' text areas, which screen readers announce (axe: aria-input-field-name).
      ariaLabel: `Diff of ${path}`,
      originalAriaLabel: `${path} before`,
      modifiedAriaLabel: `${path} after`,
    }),
    [sideBySide, lineOffset, path],
  );

  const onMount: DiffOnMount = (editor) => {
    editorRef.current = editor;
    const sides = [editor.getOriginalEditor(), editor.getModifiedEditor()];
    const measure = () =>
      setMeasured(Math.min(Math.max(...sides.map((side) => side.getContentHeight())), EDITOR_MAX_HEIGHT));
    for (const side of sides) side.onDidContentSizeChange(measure);
    measure();
  };

  return (
    <DiffEditor
      height={measured ?? height}
      original={original}
      modified={modified}
      language={language}
      theme={dark ? 'vs-dark' : 'vs'}
      options={options}
      onMount={onMount}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      loading={null}
    />
  );
}
