"""Reports: charts and Markdown written from studies."""
