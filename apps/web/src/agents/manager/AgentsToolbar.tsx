import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { isAgentOrder, ORDER_OPTIONS, type AgentOrder } from './list-params';
import { applyQuickFilter, isQuickFilterActive, QUICK_FILTERS } from './search-term';

/** Search box, quick filters and order for the agents table (workspace §9). */
export function AgentsToolbar(props: {
  search: string;
  onSearchChange: (term: string) => void;
  /** A quick filter applies at once, without the search debounce. */
  onSearchNow: (term: string) => void;
  order: AgentOrder;
  onOrderChange: (order: AgentOrder) => void;
}) {
  const orderLabelId = useId();
  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="Search agents"
          size="small"
          placeholder="creator:me is:unarchived title words"
          value={props.search}
          onChange={(event) => props.onSearchChange(event.target.value)}
          sx={{ flex: 1 }}
        />
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <InputLabel id={orderLabelId}>Order</InputLabel>
          <Select
            labelId={orderLabelId}
            label="Order"
            value={props.order}
            onChange={(event) => {
              if (isAgentOrder(event.target.value)) props.onOrderChange(event.target.value);
            }}
          >
            {ORDER_OPTIONS.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label="Quick filters">
        {QUICK_FILTERS.map((filter) => {
          const active = isQuickFilterActive(props.search, filter.id);
          return (
            <Chip
              key={filter.id}
              label={filter.label}
              size="small"
              clickable
              color={active ? 'primary' : 'default'}
              variant={active ? 'filled' : 'outlined'}
              aria-pressed={active}
              onClick={() => props.onSearchNow(applyQuickFilter(props.search, filter.id))}
            />
          );
        })}
      </Stack>
    </Stack>
  );
}
