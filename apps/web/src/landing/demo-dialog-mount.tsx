import { ThemeProvider } from '@mui/material/styles';
import { createRoot } from 'react-dom/client';
import { DemoRequestDialog } from '../demo/DemoRequestDialog';
import type { ThemeMode } from '../theme/theme-mode';
import { themeFor } from '../theme/themes';

export interface DemoDialogHandle {
  open(): void;
  /** The page's theme toggle changed the theme. */
  setMode(mode: ThemeMode): void;
}

/**
 * The app's Request a Demo dialog on the landing page (landing.html), which has no React of its
 * own: loaded with React and MUI on the first click, mounted once into `container`. Stays mounted
 * after closing so the closing transition plays and the dialog resets itself as in the app.
 */
export function mountDemoDialog(container: HTMLElement, mode: ThemeMode): DemoDialogHandle {
  const root = createRoot(container);
  let open = false;
  let current = mode;
  const render = () =>
    root.render(
      <ThemeProvider theme={themeFor(current)}>
        <DemoRequestDialog
          open={open}
          onClose={() => {
            open = false;
            render();
          }}
        />
      </ThemeProvider>,
    );
  return {
    open() {
      open = true;
      render();
    },
    setMode(next) {
      current = next;
      render();
    },
  };
}
