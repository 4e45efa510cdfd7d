// GET LEDGER_API.public(token)/certificate: the PDF certificate of a share (no login), in the
// language and time zone of the client's headers, with a QR code that opens the public page.
import { LEDGER_API } from '@iotc/shared/ledger/api';
import { downloadFile } from '../../../lib/list-query.ts';

export const certificatePath = (token: string) => `${LEDGER_API.public(token)}/certificate`;

export function downloadCertificate(token: string): Promise<string> {
  return downloadFile(certificatePath(token), {}, 'ledger-certificate.pdf');
}
