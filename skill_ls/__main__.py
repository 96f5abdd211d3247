from skill_ls.cli import console_main

console_main()
