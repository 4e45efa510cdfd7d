// The declaration a list screen hands to DataTable (spec section 3, table descriptor): columns,
// toolbar and row buttons described as data, so a new list screen is short.
import type { Key, ReactNode } from 'react';

/** Any row object; a column's `value` names one of its fields. */
export type Row = object;
/** The row type of declarations that name no row type: any field name is accepted. */
export type AnyRow = Record<string, unknown>;

/**
 * Presentation of a cell (spec: source lookup, local text map, button, switch, link, unit, limit, html, battery, place);
 * 'tags' shows a list value (texts) as one tag each; 'datetime' a `YYYY-MM-DD HH:mm:ss` text, on one line and
 * never cut (its column is DATE_TIME_WIDTH wide in every layout).
 */
export type ColumnType = 'text' | 'source' | 'map' | 'button' | 'switch' | 'link' | 'unit' | 'limit' | 'html' | 'battery' | 'place' | 'tags' | 'datetime';

/** One entry of a column's lookup list: the row value and the text shown for it (i18n key or text). */
export interface LookupItem {
  key: string | number | boolean;
  text: string;
}

/** One entry of a column's button lookup: the button shown when the row value equals `key`. */
export interface ButtonLookupItem {
  key: string | number | boolean;
  /** i18n key or text. */
  text: string;
  /** antd button type of a `butType: 'button'` entry. */
  type?: 'primary' | 'default' | 'dashed' | 'link' | 'text';
  disabled?: boolean;
  /** 'button' (default): a small clickable button; 'tag': a coloured status badge. */
  butType?: 'button' | 'tag';
  /** Background colour (CSS colour). */
  background?: string;
  /** Text colour (CSS colour). */
  color?: string;
}

export interface TableColumn<T extends Row = AnyRow> {
  /** Header label: an i18n key, shown through t(); a text that is no key is shown as written. */
  key: string;
  /** Row field name; also the column's stable id in the custom-column preference. */
  value: Extract<keyof T, string>;
  width?: number;
  /** Suffix of 'unit' and 'limit' cells. */
  unit?: string;
  /** Server-side sorting (server mode only). */
  sortable?: boolean;
  /** Hidden until the user shows it in the custom-column dialog. */
  hidden?: boolean;
  /** Presentation; without it the spec's flags decide (battery, place), else plain text. */
  type?: ColumnType;
  /** Dictionary code of the dict API ('source' cells). */
  source?: string;
  /** Key/text pairs ('source' cells); checked before the dictionary. */
  lookup?: LookupItem[];
  /** Local text map: row value -> i18n key or text ('map' cells). */
  textMap?: Record<string, string>;
  /** Button lookup ('button' cells). */
  buttons?: ButtonLookupItem[];
  /** Bounds of 'limit' cells; a value outside them is shown in red. */
  maxValue?: number;
  minValue?: number;
  /** Bounds that differ per row ('limit' cells): the row fields holding them, used over maxValue / minValue when set. */
  maxValueField?: Extract<keyof T, string>;
  minValueField?: Extract<keyof T, string>;
  /** `data-testid` of the column's cells; a 'limit' cell also carries `data-out-of-range="true"` when outside its bounds. */
  testId?: string;
  /** Cells on one line, never wrapped (a date-time with a word or tag beside it). */
  nowrap?: boolean;
  /** Kept in view at the left while a wide table scrolls sideways (tables of 10 or more columns). */
  fixedLeft?: boolean;
  /** The spec's battery flag: same as type 'battery'. */
  battery?: boolean;
  /** The spec's place-icon flag: same as type 'place'. */
  place?: boolean;
}

/** A toolbar button ("top" or "more" group). */
export interface TopButton {
  /** i18n key or text. */
  name: string;
  icon?: ReactNode;
  onClick: () => void;
  danger?: boolean;
  disabled?: boolean;
  primary?: boolean;
  /** `data-testid` of the button. */
  testId?: string;
}

/** A button of the per-row action column. */
export interface RowButton<T extends Row = AnyRow> {
  /** i18n key or text; the tooltip and accessible name of an icon-only button. */
  name: string;
  icon?: ReactNode;
  /** 'ti' text and icon, 't' text, 'i' icon only. */
  showtype: 'ti' | 't' | 'i';
  onClick: (row: T) => void;
  danger?: boolean;
  /** i18n key of a confirmation text: the action runs only after the user confirms it. */
  confirm?: string;
  hidden?: (row: T) => boolean;
  disabled?: (row: T) => boolean;
  /** `data-testid` of the button in every row. */
  testId?: string;
}

export interface TableDescriptor<T extends Row = AnyRow> {
  /** Stable id: names the column-setting cookies and the table's test hook. */
  id: string;
  columns: TableColumn<T>[];
  rowKey: Extract<keyof T, string> | ((row: T) => Key);
  topButtons?: TopButton[];
  moreButtons?: TopButton[];
  rowButtons?: RowButton<T>[];
  /** Serial-number column (default on). */
  serial?: boolean;
  /** Selection checkboxes. */
  selection?: boolean;
  /** Page-size options: 'main' 10/50/100 (default), 'small' 10/20/30/50. */
  pageSizes?: 'main' | 'small';
  /** The custom-column dialog and its toolbar button (default on). */
  columnSettings?: boolean;
  actionWidth?: number;
  /** Every cell on one line, cut with an ellipsis: rows keep one height (a table that updates live). */
  ellipsis?: boolean;
  /**
   * Rows are never changed in place, only replaced: a cell renders again only when its row object
   * is a new one (or the columns change), so a table whose rows update live stays cheap to draw.
   */
  immutableRows?: boolean;
  /**
   * An automatic-width table (fewer than 10 columns) whose columns may not fit: it scrolls
   * sideways at its content's width instead of squeezing the columns.
   */
  overflowScroll?: boolean;
}

/** What a cell's interactive presentations report back to the screen. */
export interface CellHandlers<T extends Row = AnyRow> {
  onSwitch?: (row: T, column: TableColumn<T>, checked: boolean) => void;
  onLink?: (row: T, column: TableColumn<T>) => void;
  onCellButton?: (row: T, column: TableColumn<T>, button: ButtonLookupItem) => void;
}

/** One column's entry in the custom-column preference (spec: key and hidden flag). */
export interface ColumnPreferenceItem {
  key: string;
  hidden: boolean;
}
export type ColumnPreference = ColumnPreferenceItem[];
