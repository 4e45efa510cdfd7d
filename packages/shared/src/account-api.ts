// The paths of the account calls (re-exported by account.ts), without the schemas: the web
// app's login page imports them and so stays free of Zod.
export const ACCOUNT_API = {
  register: '/api/iot/v2/registrations',
  sysUserModel: '/iot-cloud-auth/auth/v1/sysUserModel',
  sendMail: '/iot-cloud-auth/auth/v1/sendMail',
  mailVerify: '/iot-cloud-auth/auth/v1/mailVerify',
  forgot: '/iot-cloud-auth/auth/v1/forgot',
  ssoConfig: '/api/iot/v2/sso/config',
  oauth: '/iot-cloud-auth/auth/v1/oauth',
  oauthCallback: '/iot-cloud-auth/auth/v1/oauth/callback',
  bindUser: '/api/iot/v2/sso/auth/bindUser',
} as const;
