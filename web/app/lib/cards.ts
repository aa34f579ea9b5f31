/**
 * `use:cards` on a <table>: below 600 px the table becomes one card per row (app.css), each
 * cell labelled with its column's header, so that no table scrolls sideways on a phone. The
 * labels follow the rows as they change (live results, sorting, filters).
 */
export function cards(table: HTMLTableElement) {
  const label = () => {
    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.replace(/[↑↓]/g, '').trim() ?? '');
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => {
        if (cell.getAttribute('data-label') !== headers[i]) cell.setAttribute('data-label', headers[i] ?? '');
      });
    }
  };
  table.setAttribute('data-cards', '');
  label();
  const observer = new MutationObserver(label);
  observer.observe(table, { childList: true, subtree: true, characterData: true });
  return { destroy: () => observer.disconnect() };
}
