# One way to write a date and one to write a moment across the site (cards, logs, history,
# scenes): the short and long formats are the same on purpose.
DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
