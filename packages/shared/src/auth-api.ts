// The paths of the login, menu and dictionary calls (re-exported by auth.ts), without the
// schemas: the web app's login page imports them and so stays free of Zod.
/** The paths of the calls, exactly as the spec names them. */
export const API = {
  login: '/iot-cloud-auth/auth/v1/login',
  logout: '/iot-cloud-auth/auth/v1/logout',
  info: '/iot-cloud-auth/auth/v1/info',
  loadMenu: '/iot-cloud-auth/menu/v1/loadMenu',
  dictAll: '/iot-cloud-auth/dict/v1/all/config',
  resetPassword: '/iot-cloud-auth/user/v1/resetPassword',
  captchas: '/api/iot/v2/captchas',
  myServices: '/api/iot/v2/my-services',
} as const;
