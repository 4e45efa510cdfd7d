// Everything English of the interface, fetched as one chunk when English is in use (i18n.ts):
// the console's messages, antd's texts and dayjs's month and weekday names.
import 'dayjs/locale/en';
import antd from 'antd/locale/en_US';
import messages from '../locales/en.json';

export default { messages, antd };
