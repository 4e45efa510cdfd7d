// Cell presentations of DataTable, one per column type of the spec's table descriptor; each is
// a component so it may read the antd theme tokens (danger colour) of the screen it sits in.
import { useEffect, useReducer } from 'react';
import { Button, Switch, Tag, theme } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import type { Dict } from '@iotc/shared/auth';
import { BATTERY_LOW_PERCENT } from '@iotc/shared/constants';
import { dictText } from '../../api/dict-all.ts';
import { useLabel } from '../../lib/label.ts';
import type { AnyRow, CellHandlers, ColumnType, Row, TableColumn } from './types.ts';
import { loadSanitizer, type Sanitize } from '../../lib/sanitize.ts';

/** What an empty cell shows. */
export const EMPTY_CELL = '-';

export interface CellContext<T extends Row = AnyRow> extends CellHandlers<T> {
  dicts?: Dict[];
}

/** The presentation a column gets: its type, else the spec's battery/place flags, else text. */
export function effectiveType(column: Pick<TableColumn, 'type' | 'battery' | 'place'>): ColumnType {
  if (column.type) return column.type;
  if (column.battery) return 'battery';
  if (column.place) return 'place';
  return 'text';
}

export function cellValue<T extends Row>(row: T, column: TableColumn<T>): unknown {
  return (row as Record<string, unknown>)[column.value];
}

function isBlank(value: unknown): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

function asText(value: unknown): string {
  return isBlank(value) ? EMPTY_CELL : String(value);
}

function asNumber(value: unknown): number | undefined {
  if (isBlank(value) || typeof value === 'boolean') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Values a switch cell reads as on. */
export function isOn(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'Y' || value === 'true' || value === 'on';
}

/** The spec's limit rule: outside [minValue, maxValue] is out of range; the bounds themselves are not. */
export function isOutOfRange(value: unknown, minValue?: number, maxValue?: number): boolean {
  const n = asNumber(value);
  if (n === undefined) return false;
  return (minValue !== undefined && n < minValue) || (maxValue !== undefined && n > maxValue);
}

/** The bounds of a 'limit' cell in `row`: the row's own bound fields when declared and set, else the column's. */
export function limitBounds<T extends Row>(row: T, column: TableColumn<T>): { minValue?: number; maxValue?: number } {
  const r = row as Record<string, unknown>;
  const fromRow = (field: string | undefined, fallback: number | undefined) => (field ? (asNumber(r[field]) ?? fallback) : fallback);
  return { minValue: fromRow(column.minValueField, column.minValue), maxValue: fromRow(column.maxValueField, column.maxValue) };
}

/** Whether the cell of a 'limit' column holds a value outside its bounds. */
export function isCellOutOfRange<T extends Row>(row: T, column: TableColumn<T>): boolean {
  if (effectiveType(column) !== 'limit') return false;
  const { minValue, maxValue } = limitBounds(row, column);
  return isOutOfRange(cellValue(row, column), minValue, maxValue);
}

export function isBatteryLow(percent: number): boolean {
  return percent < BATTERY_LOW_PERCENT;
}

// Tags and attributes the html presentation keeps: plain formatting only. DOMPurify drops
// scripts and every on* handler by default; the html profile also keeps SVG/MathML out.
const SANITIZE = { USE_PROFILES: { html: true } };

let sanitizer: Sanitize | null = null;
let loading: Promise<Sanitize> | null = null;

/**
 * The html cells' sanitiser, fetched by the first html cell (lib/sanitize.ts): a cell shows
 * nothing until it is in, never the markup unsanitised.
 */
export function loadCellSanitizer(): Promise<Sanitize> {
  loading ??= loadSanitizer(SANITIZE).then((loaded) => (sanitizer = loaded));
  return loading;
}

function HtmlCell({ html }: { html: string }) {
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!sanitizer) void loadCellSanitizer().then(loaded);
  }, []);
  return sanitizer ? <span className="iotc-cell-html" dangerouslySetInnerHTML={{ __html: sanitizer(html) }} /> : <span className="iotc-cell-html" />;
}

function Unit({ unit }: { unit?: string }) {
  return unit ? <span className="iotc-cell-unit">{unit}</span> : null;
}

function LimitCell({ row, value, column }: { row: AnyRow; value: unknown; column: TableColumn }) {
  const { token } = theme.useToken();
  if (isBlank(value)) return <>{EMPTY_CELL}</>;
  const { minValue, maxValue } = limitBounds(row, column);
  const out = isOutOfRange(value, minValue, maxValue);
  return (
    <span className={out ? 'iotc-cell-limit iotc-cell-out-of-range' : 'iotc-cell-limit'} style={out ? { color: token.colorError } : undefined}>
      {String(value)}
      <Unit unit={column.unit} />
    </span>
  );
}

function BatteryCell({ value }: { value: unknown }) {
  const { token } = theme.useToken();
  const n = asNumber(value);
  if (n === undefined) return <>{EMPTY_CELL}</>;
  const low = isBatteryLow(n);
  const style = low
    ? { color: token.colorError, background: token.colorErrorBg, borderColor: token.colorErrorBorder }
    : { color: token.colorSuccess, background: token.colorSuccessBg, borderColor: token.colorSuccessBorder };
  return (
    <span className={low ? 'iotc-battery iotc-battery-low' : 'iotc-battery'} style={style}>
      {`${Math.round(n)}%`}
    </span>
  );
}

function SourceCell({ value, column, dicts }: { value: unknown; column: TableColumn; dicts?: Dict[] }) {
  const label = useLabel();
  if (isBlank(value)) return <>{EMPTY_CELL}</>;
  const item = column.lookup?.find((l) => String(l.key) === String(value));
  if (item) return <>{label(item.text)}</>;
  return <>{column.source ? dictText(dicts, column.source, String(value)) : String(value)}</>;
}

function MapCell({ value, column }: { value: unknown; column: TableColumn }) {
  const label = useLabel();
  if (isBlank(value)) return <>{EMPTY_CELL}</>;
  const text = column.textMap?.[String(value)];
  return <>{text === undefined ? String(value) : label(text)}</>;
}

function ButtonCell<T extends Row>({ row, value, column, ctx }: CellProps<T> & { value: unknown }) {
  const label = useLabel();
  const item = column.buttons?.find((b) => String(b.key) === String(value));
  if (!item) return <>{asText(value)}</>;
  const colours = { background: item.background, color: item.color, borderColor: item.background };
  if (item.butType === 'tag') {
    return (
      <Tag className="iotc-cell-tag" style={colours}>
        {label(item.text)}
      </Tag>
    );
  }
  return (
    <Button
      size="small"
      className="iotc-cell-button"
      type={item.type ?? 'default'}
      disabled={item.disabled}
      style={colours}
      onClick={() => ctx.onCellButton?.(row, column, item)}
    >
      {label(item.text)}
    </Button>
  );
}

function SwitchCell<T extends Row>({ row, value, column, ctx }: CellProps<T> & { value: unknown }) {
  const label = useLabel();
  return (
    <Switch
      size="small"
      checked={isOn(value)}
      aria-label={label(column.key)}
      onChange={(checked) => ctx.onSwitch?.(row, column, checked)}
    />
  );
}

function LinkCell<T extends Row>({ row, value, column, ctx }: CellProps<T> & { value: unknown }) {
  if (isBlank(value)) return <>{EMPTY_CELL}</>;
  return (
    <Button type="link" size="small" className="iotc-cell-link" onClick={() => ctx.onLink?.(row, column)}>
      {String(value)}
    </Button>
  );
}

function TagsCell({ value }: { value: unknown }) {
  const items = Array.isArray(value) ? value.filter((v) => !isBlank(v)).map(String) : isBlank(value) ? [] : [String(value)];
  if (items.length === 0) return <>{EMPTY_CELL}</>;
  return (
    <span className="iotc-cell-tags">
      {items.map((text, i) => (
        <Tag key={`${i}-${text}`} className="iotc-cell-tag">
          {text}
        </Tag>
      ))}
    </span>
  );
}

export interface CellProps<T extends Row = AnyRow> {
  row: T;
  column: TableColumn<T>;
  ctx: CellContext<T>;
}

/** One table cell as the user sees it. */
export function Cell<T extends Row>({ row, column, ctx }: CellProps<T>) {
  const value = cellValue(row, column);
  // The generic column is narrowed to the base type for the presentations that only read it.
  const col = column as unknown as TableColumn;
  switch (effectiveType(column)) {
    case 'source':
      return <SourceCell value={value} column={col} dicts={ctx.dicts} />;
    case 'map':
      return <MapCell value={value} column={col} />;
    case 'button':
      return <ButtonCell row={row} value={value} column={column} ctx={ctx} />;
    case 'switch':
      return <SwitchCell row={row} value={value} column={column} ctx={ctx} />;
    case 'link':
      return <LinkCell row={row} value={value} column={column} ctx={ctx} />;
    case 'unit':
      if (isBlank(value)) return <>{EMPTY_CELL}</>;
      return (
        <span className="iotc-cell-with-unit">
          {String(value)}
          <Unit unit={column.unit} />
        </span>
      );
    case 'limit':
      return <LimitCell row={row as unknown as AnyRow} value={value} column={col} />;
    case 'html':
      if (isBlank(value)) return <>{EMPTY_CELL}</>;
      return <HtmlCell html={String(value)} />;
    case 'battery':
      return <BatteryCell value={value} />;
    case 'tags':
      return <TagsCell value={value} />;
    case 'datetime':
      return <span className="iotc-cell-datetime">{asText(value)}</span>;
    case 'place':
      return (
        <span className="iotc-cell-place">
          <EnvironmentOutlined className="iotc-cell-place-icon" />
          {asText(value)}
        </span>
      );
    default:
      return <>{asText(value)}</>;
  }
}
