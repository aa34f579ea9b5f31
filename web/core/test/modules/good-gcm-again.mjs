// Another file under an id good-gcm.mjs already takes: a run must not time two modules as one.
import good from './good-gcm.mjs';

export default { ...good, label: 'the same id again' };
