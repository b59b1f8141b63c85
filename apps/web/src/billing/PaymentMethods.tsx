import CreditCardIcon from '@mui/icons-material/CreditCard';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { PAYMENT_MESSAGES, type BillingClientConfig, type PaymentMethod } from '@tandem/shared';
import { useState } from 'react';
import type { Notify } from '../agents/manager/Notice';
import { queryKeys } from '../api/query-keys';
import { ConfirmDialog } from '../repos/settings/ConfirmDialog';
import { AddCardDialog } from './AddCardDialog';
import { useDeletePaymentMethod } from './use-delete-payment-method';
import { usePaymentMethods } from './use-payment-methods';
import { useSetDefaultPaymentMethod } from './use-set-default-payment-method';

/** The list refreshes this long after a card is added (platform §4). */
const REFRESH_AFTER_ADD_MS = 300;

const describe = (m: PaymentMethod) =>
  `${m.display_brand.charAt(0).toUpperCase()}${m.display_brand.slice(1)} ending in ${m.last4}`;

/** Payment methods (platform §2 Billing): the cards, which is the default, add and remove. */
export function PaymentMethods(props: {
  installationId: number;
  billing: BillingClientConfig | null;
  notify: Notify;
}) {
  const { installationId, notify } = props;
  const queryClient = useQueryClient();
  const methods = usePaymentMethods(installationId);
  const setDefault = useSetDefaultPaymentMethod(installationId, {
    onError: () => notify({ severity: 'error', message: PAYMENT_MESSAGES.setDefault }),
  });
  const remove = useDeletePaymentMethod(installationId, {
    onError: () => notify({ severity: 'error', message: PAYMENT_MESSAGES.remove }),
  });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);

  const added = () => {
    setAdding(false);
    notify({ severity: 'success', message: PAYMENT_MESSAGES.added });
    setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: queryKeys.paymentMethods(installationId) }),
      REFRESH_AFTER_ADD_MS,
    );
  };

  return (
    <Stack spacing={1} component="section" aria-labelledby="payment-methods-heading">
      <Typography variant="h6" component="h3" id="payment-methods-heading">
        Payment methods
      </Typography>
      {methods.isError ? (
        <Alert severity="error">{PAYMENT_MESSAGES.paymentMethods}</Alert>
      ) : !methods.data ? (
        <Skeleton variant="rounded" height={48} aria-label="Loading payment methods" />
      ) : methods.data.methods.length === 0 ? (
        <Typography color="text.secondary">No payment methods yet.</Typography>
      ) : (
        <List dense aria-labelledby="payment-methods-heading">
          {methods.data.methods.map((method) => {
            const isDefault = method.id === methods.data.default_method;
            return (
              <ListItem
                key={method.id}
                disableGutters
                secondaryAction={
                  <Stack direction="row" spacing={1}>
                    {isDefault ? null : (
                      <Button
                        size="small"
                        onClick={() => setDefault.mutate(method.id)}
                        disabled={setDefault.isPending}
                      >
                        Make default
                      </Button>
                    )}
                    <Button size="small" color="error" onClick={() => setRemoving(method)}>
                      Remove
                    </Button>
                  </Stack>
                }
              >
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <CreditCardIcon aria-hidden />
                </ListItemIcon>
                <ListItemText
                  primary={
                    <>
                      {describe(method)}{' '}
                      {isDefault ? <Chip label="Default" size="small" sx={{ ml: 1 }} /> : null}
                    </>
                  }
                  secondary={`Expires ${String(method.exp_month).padStart(2, '0')}/${method.exp_year}`}
                />
              </ListItem>
            );
          })}
        </List>
      )}
      <div>
        <Button variant="outlined" onClick={() => setAdding(true)} disabled={!props.billing}>
          Add payment method
        </Button>
      </div>
      {props.billing ? (
        <AddCardDialog
          installationId={installationId}
          billing={props.billing}
          open={adding}
          onClose={() => setAdding(false)}
          onAdded={added}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove payment method?"
        text={removing ? `${describe(removing)} will no longer be charged.` : ''}
        confirmLabel="Remove"
        destructive
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
      />
    </Stack>
  );
}
