import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { DEMO_MODEL_KEY } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import type { AvailableModel } from './model-choice';

export const MODEL_DOCS_PATH = '/docs/installation#models';

/**
 * One line under the model selectors when this server has no real model to offer: the demo model
 * is chosen (it does no AI work), or nothing can run at all. Both say where to configure a provider.
 */
export function ModelSetupHint(props: { models: readonly AvailableModel[]; model: string }) {
  const runnable = props.models.filter((m) => m.available);
  const text =
    props.model === DEMO_MODEL_KEY
      ? 'The demo model is offline and free and follows a fixed plan: no AI.'
      : runnable.length === 0
        ? 'No model can run on this server yet.'
        : null;
  if (!text) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="model-setup-hint">
      {text}{' '}
      <Link component={RouterLink} to={MODEL_DOCS_PATH}>
        Set up a real model
      </Link>
    </Typography>
  );
}
