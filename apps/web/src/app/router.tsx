// The route table of the spec's section 2. Every screen is loaded lazily; console screens are
// opened by name through the view host.
import { createBrowserRouter, Outlet, redirect } from 'react-router-dom';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { setNavigator } from '../lib/navigation.ts';
import { PageSpin } from '../components/page-spin.tsx';
import { ScreenLoader } from './routes/screen-loader.tsx';
import { RouteError } from './routes/route-error.tsx';
import {
  resolveScreen,
  BIND_USER_SCREEN,
  CHANGE_PASSWORD_SCREEN,
  LEDGER_PUBLIC_SCREEN,
  LOGIN_SCREEN,
  NOT_FOUND_SCREEN,
  PRODUCT_SERVICE_SCREEN,
  REAUTH_DONE_SCREEN,
  REGISTER_SCREEN,
  RETRIEVE_PASSWORD_SCREEN,
  SUCCESS_SCREEN,
  TRACKING_PUBLIC_SCREEN,
} from './routes/screens.ts';
import type { ScreenImporter, ScreenProps } from '../lib/screen.ts';
import { i18nReady, loadMessageParts } from './i18n.ts';
import { adoptAddressToken, mainPageLoader, requireTokenLoader, rootLoader } from './routes/loaders.ts';
import { getScenarioType, getToken } from '../lib/session.ts';
import { prefetchMenu } from '../api/load-menu.ts';

// The console frame (navigation, header, alarm notifications) and the view host load with the
// first console screen, in one chunk, not with the login page.
// The console frame, and the pages outside the account screens, come with the shell's messages
// (the frame's and the shared components', i18n.ts `loadMessageParts`) and antd's <App>
// (feedback-app.tsx): the screen renders once both are in. Each screen brings its own messages
// besides (routes/screens.ts `withParts`).
const consoleScreen =
  (importer: ScreenImporter): ScreenImporter =>
  () =>
    Promise.all([importer(), import('./feedback-app.tsx'), loadMessageParts(['shell'])]).then(([{ default: Screen }, { FeedbackApp }]) => ({
      default: function InFeedbackApp(props: ScreenProps) {
        return (
          <FeedbackApp>
            <Screen {...props} />
          </FeedbackApp>
        );
      },
    }));
const CONSOLE_LAYOUT = consoleScreen(() => import('./console.ts').then((m) => ({ default: m.ConsoleLayout })));
// Inside the frame, which brought the shell's messages and <App> already.
const VIEW_HOST = () => import('./console.ts').then((m) => ({ default: m.ViewHost }));
const viewHost = <ScreenLoader name="viewHost" importer={VIEW_HOST} />;

// Before the router reads the address: a token query leaves it (and the history) at once.
adoptAddressToken();

/**
 * A console address loaded with a session (a reload, a bookmark, a link): the frame's chunk and
 * the addressed screen's, with their message parts, are asked for at once, beside the language,
 * the root loader and the menu, rather than one after another as each lazy level renders and the
 * view host has the menu. Only fetched here (the browser keeps one module per address); the
 * levels render as before. A screen the menu then refuses has had its code fetched, no data.
 * The menu is asked for too, once the language is known (its names come in the request's
 * language), silently: a failure is left to the frame's own call (load-menu.ts `prefetchMenu`).
 */
function startConsoleChunks(pathname: string): void {
  const address = /^\/view\/(.+)$/.exec(pathname);
  if (!address || !getToken()) return;
  const quiet = () => undefined;
  CONSOLE_LAYOUT().catch(quiet);
  resolveScreen(address[1]!.split('/'))
    ?.importer()
    .catch(quiet);
  // After the root loader, which may have taken the scenario from the address.
  void i18nReady.then(
    () => prefetchMenu(getScenarioType()),
    () => undefined,
  );
}
startConsoleChunks(window.location.pathname);

export const router = createBrowserRouter([
  {
    id: 'root',
    path: '/',
    loader: rootLoader,
    element: <Outlet />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageSpin fullPage />,
    children: [
      { index: true, loader: mainPageLoader },
      { path: 'login', element: <ScreenLoader name="login" importer={LOGIN_SCREEN} fullPage /> },
      // Account screens work signed in and signed out, so they sit outside the token check.
      {
        path: 'view/login/confirmPassword',
        element: <ScreenLoader name="changePassword" importer={CHANGE_PASSWORD_SCREEN} fullPage />,
      },
      { path: 'view/login/successPage', element: <ScreenLoader name="successPage" importer={SUCCESS_SCREEN} fullPage /> },
      { path: 'view/login/newUser', element: <ScreenLoader name="register" importer={REGISTER_SCREEN} fullPage /> },
      {
        path: 'view/login/retrievepasswordPage',
        element: <ScreenLoader name="retrievePassword" importer={RETRIEVE_PASSWORD_SCREEN} fullPage />,
      },
      { path: 'view/login/bindUserPage', element: <ScreenLoader name="bindUser" importer={BIND_USER_SCREEN} fullPage /> },
      // The window of a sign-in again at the provider (a signature): hands the proof to the console window.
      { path: 'view/login/reauthDone', element: <ScreenLoader name="reauthDone" importer={REAUTH_DONE_SCREEN} fullPage /> },
      // A ledger share link: anyone may check the published records, signed in or not.
      { path: 'verify/:token', element: <ScreenLoader name="ledgerPublic" importer={consoleScreen(LEDGER_PUBLIC_SCREEN)} fullPage /> },
      // A consignee's tracking link: one task's position, status, ETA and temperature, without login.
      { path: 'track/:token', element: <ScreenLoader name="trackingPublic" importer={consoleScreen(TRACKING_PUBLIC_SCREEN)} fullPage /> },
      {
        path: 'view/login/productService',
        loader: requireTokenLoader,
        element: <ScreenLoader name="productService" importer={consoleScreen(PRODUCT_SERVICE_SCREEN)} fullPage />,
      },
      {
        path: 'view',
        loader: requireTokenLoader,
        element: <ScreenLoader name="consoleLayout" importer={CONSOLE_LAYOUT} fullPage />,
        children: [
          { index: true, loader: () => redirect(DEFAULT_LANDING) },
          // /view/home is the Index screen and /view/home/home an unbuilt one; both resolve
          // through the registry like every other console address.
          { path: ':view', element: viewHost },
          { path: ':view/:page', element: viewHost },
          { path: ':view/:page/:id', element: viewHost },
          // Deeper addresses: a scenario_* prefix in front of view/page/id.
          { path: '*', element: viewHost },
        ],
      },
      { path: '*', element: <ScreenLoader name="notFound" importer={NOT_FOUND_SCREEN} fullPage /> },
    ],
  },
]);

setNavigator((to) => void router.navigate(to));
