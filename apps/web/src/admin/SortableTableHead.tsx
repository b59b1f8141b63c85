import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';

export interface SortableColumn<Sort extends string> {
  label: string;
  /** The API's sort_by for this column; null when it cannot be sorted. */
  sort: Sort | null;
  numeric?: boolean;
}

/** The head row of an admin table whose sortable columns toggle the order (aria-sort follows). */
export function SortableTableHead<Sort extends string>(props: {
  columns: readonly SortableColumn<Sort>[];
  sortBy: Sort;
  descending: boolean;
  onSort: (column: Sort) => void;
}) {
  const { sortBy, descending } = props;
  return (
    <TableHead>
      <TableRow>
        {props.columns.map((column) => (
          <TableCell
            key={column.label}
            align={column.numeric ? 'right' : 'left'}
            sortDirection={column.sort === sortBy ? (descending ? 'desc' : 'asc') : false}
          >
            {column.sort ? (
              <TableSortLabel
                active={column.sort === sortBy}
                direction={column.sort === sortBy && !descending ? 'asc' : 'desc'}
                onClick={() => props.onSort(column.sort!)}
              >
                {column.label}
              </TableSortLabel>
            ) : (
              column.label
            )}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}
