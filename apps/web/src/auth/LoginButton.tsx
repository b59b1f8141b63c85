import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router';
import { loginPath } from '../pages/login-path';

/** 'Login with Github' that brings the visitor back to where they were. */
export function LoginButton() {
  const location = useLocation();
  return (
    <Button variant="contained" component={RouterLink} to={loginPath(location.pathname + location.search)}>
      Login with Github
    </Button>
  );
}
