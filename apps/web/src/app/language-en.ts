// English of the interface, fetched as one chunk when English is in use (i18n.ts):
// the first load's messages (the account screens'; the console's parts come with its frame and each screen, i18n.ts),
// antd's texts and dayjs's month and weekday names.
import 'dayjs/locale/en';
import antd from 'antd/locale/en_US';
import messages from '../locales/en.json?part=account';

export default { messages, antd };
