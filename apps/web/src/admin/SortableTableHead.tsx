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

/**
 * The head row of an admin table whose sortable columns toggle the order (aria-sort follows).
 * Without `sort`, a plain head: every column's label, numeric ones aligned right.
 */
export function SortableTableHead<Sort extends string>(props: {
  columns: readonly SortableColumn<Sort>[];
  sort?: { sortBy: Sort; descending: boolean; onSort: (column: Sort) => void };
}) {
  const { sort } = props;
  return (
    <TableHead>
      <TableRow>
        {props.columns.map((column) => (
          <TableCell
            key={column.label}
            align={column.numeric ? 'right' : 'left'}
            sortDirection={sort && column.sort === sort.sortBy ? (sort.descending ? 'desc' : 'asc') : false}
          >
            {sort && column.sort ? (
              <TableSortLabel
                active={column.sort === sort.sortBy}
                direction={column.sort === sort.sortBy && !sort.descending ? 'asc' : 'desc'}
                onClick={() => sort.onSort(column.sort!)}
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
