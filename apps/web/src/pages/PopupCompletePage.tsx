import Typography from '@mui/material/Typography';
import { useEffect } from 'react';

/** End of a popup sign-in: tell the opener, then close. */
export function PopupCompletePage() {
  useEffect(() => {
    if (window.opener) {
      (window.opener as Window).postMessage({ type: 'tandem-login', ok: true }, window.location.origin);
      window.close();
    }
  }, []);
  return <Typography sx={{ p: 4, textAlign: 'center' }}>Signed in. You can close this window.</Typography>;
}

export default PopupCompletePage;
