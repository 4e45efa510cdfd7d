// Stacking of overlays. A dialog kept mounted from the page's start (forceRender) sits earlier in
// the document than a drawer opened later, and at antd's equal default z-index the drawer would
// cover it: dialogs opened from a drawer take this one.
export const DIALOG_OVER_DRAWER_Z = 1100;
