import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import Container from '@mui/material/Container';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  BILLING_MESSAGES,
  DEFAULT_TRANSACTIONS_PAGE_SIZE,
  formatCredits,
  formatLedgerAmount,
  PAYMENT_MESSAGES,
  TRANSACTION_PAGE_SIZES,
  type Transaction,
} from '@tandem/shared';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { agentPath } from '../agents/agent-display';
import { useActiveInstallation } from '../auth/active-installation';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { usePageTitle } from '../lib/page-title';
import { useCreditsRemaining } from './use-credits-remaining';
import { useInvoiceUrl } from './use-invoice-url';
import { useTransactions } from './use-transactions';

const FILTERS = [
  { param: 'agents', label: 'Agents' },
  { param: 'invoices', label: 'Invoices' },
  { param: 'other', label: 'Other' },
] as const;

/** The installation from the path, else the active one; null when neither names one. */
function useInstallationId(): number | null {
  const { installationId } = useParams();
  const active = useActiveInstallation();
  if (installationId === undefined) return active.id;
  const id = Number(installationId);
  return Number.isInteger(id) && id > 0 ? id : null;
}

function Description({ row, installationId }: { row: Transaction; installationId: number }) {
  if (row.kind === 'invoice' && row.invoice_id)
    return <InvoiceLink invoiceId={row.invoice_id} installationId={installationId} label={row.description} />;
  if (row.kind === 'agent' && row.trajectory_id)
    return (
      <Link component={RouterLink} to={agentPath({ id: row.trajectory_id, repo_name: row.repo_name })}>
        {row.description}
      </Link>
    );
  return <>{row.description}</>;
}

/**
 * An invoice row opens the invoice's hosted page in a new tab (platform §2). The tab is opened on
 * the click itself (so no pop-up blocker stops it) and pointed at the page once its URL is known.
 */
function InvoiceLink(props: { invoiceId: string; installationId: number; label: string }) {
  const invoiceUrl = useInvoiceUrl(props.installationId);
  const open = () => {
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    invoiceUrl.mutate(props.invoiceId, {
      onSuccess: ({ url }) => {
        if (tab) tab.location.href = url;
        else window.open(url, '_blank', 'noopener');
      },
      onError: () => tab?.close(),
    });
  };
  return (
    <>
      <Link component="button" type="button" onClick={open} sx={{ verticalAlign: 'baseline' }}>
        {props.label}
      </Link>
      {invoiceUrl.isError ? (
        <Typography role="alert" variant="body2" color="error">
          {PAYMENT_MESSAGES.invoiceUrl}
        </Typography>
      ) : null}
    </>
  );
}

/** Credit Transactions (platform §2): filters, Amount / Description / Date, paging of 25. */
export default function TransactionsPage() {
  usePageTitle('Transactions ·');
  useBreadcrumbs([{ label: 'Settings', to: '/settings' }, { label: 'Transactions' }]);
  const installationId = useInstallationId();
  // The list's state lives in the URL (DESIGN §7), so reloads and links keep it.
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sizeParam = Number(params.get('rowsPerPage'));
  const rowsPerPage = (TRANSACTION_PAGE_SIZES as readonly number[]).includes(sizeParam)
    ? sizeParam
    : DEFAULT_TRANSACTIONS_PAGE_SIZE;
  const filters = {
    agents: params.get('agents') !== 'false',
    invoices: params.get('invoices') !== 'false',
    other: params.get('other') !== 'false',
  };
  const transactions = useTransactions(
    installationId === null ? null : { installationId, page, rowsPerPage, ...filters },
  );
  const credits = useCreditsRemaining(installationId);

  const setParam = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  if (installationId === null)
    return (
      <Container maxWidth="md" sx={{ py: 4 }}>
        <Alert severity="error">{BILLING_MESSAGES.missingInstallation}</Alert>
      </Container>
    );

  const rows = transactions.data?.transactions ?? [];
  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Credit Transactions
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Credits available:{' '}
        <strong data-testid="credits-available">
          {credits.data
            ? formatCredits(credits.data.credits)
            : credits.isError
              ? BILLING_MESSAGES.credits
              : '…'}
        </strong>
      </Typography>
      <Stack
        direction="row"
        spacing={2}
        component="fieldset"
        sx={{ border: 0, p: 0, m: 0, mb: 1, alignItems: 'center' }}
      >
        <FormLabel component="legend" sx={{ float: 'left', mr: 2 }}>
          Show
        </FormLabel>
        <FormGroup row>
          {FILTERS.map((filter) => (
            <FormControlLabel
              key={filter.param}
              label={filter.label}
              control={
                <Checkbox
                  checked={filters[filter.param]}
                  onChange={(event) =>
                    setParam({ [filter.param]: event.target.checked ? null : 'false', page: null })
                  }
                />
              }
            />
          ))}
        </FormGroup>
      </Stack>
      {transactions.isError ? <Alert severity="error">{BILLING_MESSAGES.transactions}</Alert> : null}
      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" aria-label="Credit transactions">
            <TableHead>
              <TableRow>
                <TableCell align="right">Amount</TableCell>
                <TableCell>Description</TableCell>
                <TableCell>Date</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                    {formatLedgerAmount(row.amount)}
                  </TableCell>
                  <TableCell>
                    <Description row={row} installationId={installationId} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {new Date(row.created_at).toLocaleString()}
                  </TableCell>
                </TableRow>
              ))}
              {transactions.isSuccess && rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={3}>No transactions</TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={transactions.data?.count ?? 0}
          page={page - 1}
          rowsPerPage={rowsPerPage}
          rowsPerPageOptions={[...TRANSACTION_PAGE_SIZES]}
          onPageChange={(_event, next) => setParam({ page: next === 0 ? null : String(next + 1) })}
          onRowsPerPageChange={(event) => setParam({ rowsPerPage: event.target.value, page: null })}
        />
      </Paper>
    </Container>
  );
}
