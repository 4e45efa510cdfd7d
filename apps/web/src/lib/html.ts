// Text inside HTML that a library builds from strings: Leaflet tooltips and popups (a string is
// set as innerHTML), ECharts tooltip formatters (a function's string is set as innerHTML; only
// string templates are escaped by ECharts itself) and the table's markup cells. Every text of
// such HTML goes through escapeHtml, so a name reads as written and never becomes markup.
// The same characters and entities as ECharts' `format.encodeHTML`, kept here so the map screens
// do not load ECharts for it.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
