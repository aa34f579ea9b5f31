-- The device model was free text, published as sent ("Anna's Pixel 8"). From now on only a
-- family from web/core/submit.ts's DEVICE_FAMILIES is accepted; a stored model string that is
-- not one of them is removed (this list is that table as of this migration).
UPDATE submissions SET device_model = NULL
WHERE device_model IS NOT NULL AND device_model NOT IN (
  'iPhone', 'iPad', 'Mac', 'Google Pixel', 'Samsung Galaxy', 'Xiaomi, Redmi, POCO', 'OPPO', 'realme', 'vivo', 'OnePlus',
  'Huawei, Honor', 'Motorola', 'Infinix, TECNO, itel', 'Nokia', 'Sony Xperia', 'ASUS', 'Lenovo', 'Nothing');
