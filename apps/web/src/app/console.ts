// The signed-in part of the router: the console frame and the view host, one chunk fetched with
// the first console screen and never on the login page.
export { ConsoleLayout } from './layout/console-layout.tsx';
export { ViewHost } from './routes/view-host.tsx';
