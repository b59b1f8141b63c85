import { startLanding } from './static-landing';

// landing.html's script: no React, router, query client or MUI here (issue 15's 150 KB budget).
startLanding();
