import Alert from '@mui/material/Alert';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { PageSpinner } from '../layout/PageSpinner';
import { SortableTableHead, type SortableColumn } from './SortableTableHead';
import type { useListParams } from './use-list-params';

/**
 * One paged admin list (users, repositories, installations, tasks): its loading and error states,
 * the table with its head (sortable columns where `sort` is given), a row per item or a "none
 * found" row, and the pager. The table is a named, focusable region: on a phone it scrolls
 * sideways, and a keyboard must be able to scroll it too (axe's scrollable-region-focusable).
 */
export function AdminListTable<Row, Sort extends string = never>(props: {
  /** The table's accessible name, e.g. 'Users'. */
  label: string;
  /** What the rows are, for "Error loading {noun}." and "No {noun} found.". */
  noun: string;
  list: { isError: boolean; isPending: boolean };
  /** The page of rows and how many there are in all, once loaded. */
  page: { rows: readonly Row[]; count: number } | undefined;
  columns: readonly SortableColumn<Sort>[];
  /** The sort, for tables with sortable columns (SortableTableHead). */
  sort?: { sortBy: Sort; descending: boolean; onSort: (column: Sort) => void };
  /** A `<TableRow key=…>` for the row. */
  renderRow: (row: Row) => ReactNode;
  pagination: ReturnType<typeof useListParams>['pagination'];
}) {
  const { list, page } = props;
  return (
    <>
      {list.isError ? <Alert severity="error">Error loading {props.noun}.</Alert> : null}
      {list.isPending ? <PageSpinner /> : null}
      {page ? (
        <>
          <TableContainer role="region" aria-label={`${props.label}, scrollable`} tabIndex={0}>
            <Table size="small" aria-label={props.label}>
              <SortableTableHead columns={props.columns} sort={props.sort} />
              <TableBody>
                {page.rows.map(props.renderRow)}
                {page.rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={props.columns.length}>No {props.noun} found.</TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination component="div" count={page.count} {...props.pagination} />
        </>
      ) : null}
    </>
  );
}
