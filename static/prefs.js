// Display preferences shared by every page: four-colour suits.
const box = document.getElementById('four-colour');
const key = 'golf.fourColour';
function apply(on) { document.body.classList.toggle('four', on); if (box) box.checked = on; }
try { apply(localStorage.getItem(key) === '1'); } catch { /* storage may be off */ }
box?.addEventListener('change', () => {
  apply(box.checked);
  try { localStorage.setItem(key, box.checked ? '1' : '0'); } catch { /* ignore */ }
});
