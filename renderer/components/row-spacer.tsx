/**
 * Stands in for the rows of a windowed table (use-window-rows.ts) that are not drawn: their height,
 * nothing to read. `columns`: the table's, so the row spans it.
 */
export function RowSpacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" data-spacer="true" className="row-spacer">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}
