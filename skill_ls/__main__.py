from skill_ls.cli import main

raise SystemExit(main())
